import { JOB_FAILED_NOTIFICATION, JOB_FINISHED_NOTIFICATION, type Notification } from '@lamella/contracts';
import { useModelName } from '../../lib/modelName';
import { useAvailableModels } from '../favourites/api';

/** The model of a JOB_FINISHED / JOB_FAILED notification: its name in the UI language and its results page. */
export function useJobNotificationModel(n: Notification): { name: string; path: string } | null {
  const models = useAvailableModels();
  const nameOf = useModelName();
  if (n.type !== JOB_FINISHED_NOTIFICATION && n.type !== JOB_FAILED_NOTIFICATION) return null;
  const model = models.data?.find((m) => m.id === n.payload.modelId);
  return model ? { name: nameOf(model), path: `/models/${model.name.toLowerCase()}` } : null;
}
