import type { AvailableModel, ModelNavItem } from '@lamella/contracts';
import type { Db } from '../../platform/db/client.ts';
import { notFound } from '../../platform/http/errors.ts';
import * as computeModels from '../compute-models/service.ts';
import * as repo from './repo.ts';

export { listAccessibleModels } from '../compute-models/service.ts';

type ModelRow = computeModels.ModelRow;
interface Caller {
  id: string;
  role: string;
}

const navItem = (m: ModelRow): ModelNavItem => ({
  id: m.id,
  displayName: m.displayName,
  displayNameDe: m.displayNameDe,
  label: m.displayName,
  path: `/models/${m.internalName.toLowerCase()}`,
  modelId: m.id,
  accessType: m.accessType,
});

async function choices(db: Db, user: Caller): Promise<Array<{ model: ModelRow; favorite: boolean }>> {
  const [models, chosen] = await Promise.all([
    computeModels.listAccessibleModels(db, user.id, user.role === 'ADMIN'),
    repo.listFavoriteChoices(db, user.id),
  ]);
  return models.map((m) => ({ model: m, favorite: chosen.get(m.id) ?? m.isDefaultVisible }));
}

/** The models the caller may run, each with whether it is among their favourites (one statement). */
export function availableModels(db: Db, user: Caller): Promise<AvailableModel[]> {
  return repo.availableModels(db, user.id, user.role === 'ADMIN');
}

/** The header tabs: the caller's favourite models. */
export async function favorites(db: Db, user: Caller): Promise<ModelNavItem[]> {
  return (await choices(db, user)).filter((f) => f.favorite).map((f) => navItem(f.model));
}

/** Marks a model the caller may run as favourite or not; 404 for any other model. */
export async function setFavorite(db: Db, user: Caller, modelId: string, favorite: boolean): Promise<ModelNavItem[]> {
  const models = await computeModels.listAccessibleModels(db, user.id, user.role === 'ADMIN');
  if (!models.some((m) => m.id === modelId)) throw notFound('model');
  await repo.setFavorite(db, user.id, modelId, favorite);
  return favorites(db, user);
}
