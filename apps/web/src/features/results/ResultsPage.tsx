import { Button, Center, Skeleton, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { useAvailableModels } from '../favourites/api';
import { ModelResults } from './ModelResults';
import { NewsCard } from '../news/NewsCard';
import { useModelName } from '../../lib/modelName';
import { useViewingModel } from '../notifications/useViewingModel';

/** The results page of one model (/models/{lowercased name}). */
export function ResultsPage() {
  const { t } = useTranslation();
  const nameOf = useModelName();
  const { name = '' } = useParams();
  const models = useAvailableModels();
  const model = models.data?.find((m) => m.name.toLowerCase() === name.toLowerCase());
  useViewingModel(model?.id);
  if (models.isPending) {
    return (
      <Stack>
        <Skeleton h={32} w={240} />
        <Skeleton h={64} />
        <Skeleton h={64} />
      </Stack>
    );
  }
  if (!model) {
    return (
      <Center mih="40vh">
        <Stack align="center">
          <Text>{t('results.modelNotFound')}</Text>
          <Button component={Link} to="/dashboard" variant="light">
            {t('results.toDashboard')}
          </Button>
        </Stack>
      </Center>
    );
  }
  return (
    <Stack gap="md">
      <NewsCard modelId={model.id} />
      <ModelResults key={model.id} modelId={model.id} title={nameOf(model)} />
    </Stack>
  );
}
