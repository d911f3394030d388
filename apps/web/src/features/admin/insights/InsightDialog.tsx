import { Alert } from '@mantine/core';
import { IconInfoCircle } from '@tabler/icons-react';
import type { Insight, InsightBody } from '@lamella/contracts';
import { useTranslation } from 'react-i18next';
import { call } from '../../../api/client';
import { BilingualDialog } from '../common/BilingualDialog';
import { ADMIN_INSIGHTS_KEY, insightsApi } from './api';

/** The modal 'Edit insights' (add when `insight` is null): English and German title and content, all required. */
export function InsightDialog({ insight, onClose }: { insight: Insight | null; onClose: () => void }) {
  const { t } = useTranslation();
  const save = (body: InsightBody) => (insight ? call(insightsApi.update, { params: { id: insight.id }, body }) : call(insightsApi.create, { body }));
  return (
    <BilingualDialog
      item={insight}
      title={t('insights.admin.modalTitle')}
      testId="insight-dialog"
      testIdPrefix="insight"
      queryKey={ADMIN_INSIGHTS_KEY}
      save={save}
      onClose={onClose}
    >
      <Alert color="blue" icon={<IconInfoCircle size={16} />}>
        {t('insights.admin.imageNote')}
      </Alert>
    </BilingualDialog>
  );
}
