import { Select } from '@mantine/core';
import type { News } from '@lamella/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../../api/client';
import { BilingualDialog } from '../common/BilingualDialog';
import type { BilingualValues } from '../insights/bilingual';
import { ADMIN_NEWS_KEY, newsApi, useModelNames } from './api';
import { useModelName } from '../../../lib/modelName';

/** Add or edit news: an optional model (empty: general news), English and German title and content. */
export function NewsDialog({ news, onClose }: { news: News | null; onClose: () => void }) {
  const { t } = useTranslation();
  const nameOf = useModelName();
  const models = useModelNames();
  const [modelId, setModelId] = useState<string | null>(news?.modelId ?? null);
  const save = (values: BilingualValues) => {
    const body = { ...values, modelId };
    return news ? call(newsApi.update, { params: { id: news.id }, body }) : call(newsApi.create, { body });
  };
  return (
    <BilingualDialog
      item={news}
      title={t('news.admin.modalTitle')}
      testId="news-dialog"
      testIdPrefix="news"
      queryKey={ADMIN_NEWS_KEY}
      save={save}
      onClose={onClose}
    >
      <Select
        label={t('news.admin.model')}
        placeholder={t('news.admin.modelPlaceholder')}
        data={(models.data ?? []).map((m) => ({ value: m.id, label: nameOf(m) }))}
        value={modelId}
        onChange={setModelId}
        clearable
        searchable
        data-testid="news-model"
      />
    </BilingualDialog>
  );
}
