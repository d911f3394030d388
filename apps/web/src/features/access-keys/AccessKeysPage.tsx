import { Alert, Stack, Title } from '@mantine/core';
import { IconInfoCircle } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { CreatedAccessKey } from '@lamella/contracts';
import { CreateKeyForm } from './CreateKeyForm';
import { CreatedKeyModal } from './CreatedKeyModal';
import { KeysTable } from './KeysTable';

export function AccessKeysPage() {
  const { t } = useTranslation();
  const [created, setCreated] = useState<CreatedAccessKey | null>(null);
  return (
    <Stack gap="lg" maw={1100}>
      <Title order={1} size="h2">
        {t('accessKeys.title')}
      </Title>
      <Alert icon={<IconInfoCircle />} color="indigo" variant="light">
        {t('accessKeys.info')}
      </Alert>
      <CreateKeyForm onCreated={setCreated} />
      <KeysTable />
      <CreatedKeyModal created={created} onClose={() => setCreated(null)} />
    </Stack>
  );
}
