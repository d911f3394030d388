import { Alert, Center, Loader, Modal } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../lib/errorText';
import { SafeHtml } from '../results/SafeHtml';
import { useInsight } from './api';

/** One insight, read in full (title and content in the UI language). */
export function InsightModal({ id, onClose }: { id: string; onClose: () => void }) {
  const { t } = useTranslation();
  const insight = useInsight(id);
  return (
    <Modal opened onClose={onClose} title={insight.data?.title ?? ''} size="lg" closeButtonProps={{ 'aria-label': t('insights.user.close') }}>
      {insight.isPending ? (
        <Center p="lg">
          <Loader />
        </Center>
      ) : insight.isError ? (
        <Alert color="red">{errorText(t, insight.error)}</Alert>
      ) : (
        <div data-testid="insight-content" style={{ maxWidth: '100%', overflowX: 'auto' }}>
          <SafeHtml html={insight.data.content ?? ''} />
        </div>
      )}
    </Modal>
  );
}
