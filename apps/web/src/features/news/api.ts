/** The user's news: general news (dashboard) and one model's news (its results page). */
import { useQuery } from '@tanstack/react-query';
import { newsApi } from '@lamella/contracts';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';

/** General news when `modelId` is undefined; the UI language picks the title and content. */
export function useNews(modelId?: string) {
  const { i18n } = useTranslation();
  return useQuery({
    queryKey: ['news', modelId ?? 'general', i18n.language],
    queryFn: () => call(newsApi.userList, { query: modelId ? { modelId } : {} }),
    retry: false,
  });
}
