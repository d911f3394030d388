import { eq, sql } from 'drizzle-orm';
import type { AvailableModel } from '@lamella/contracts';
import type { Db } from '../../platform/db/client.ts';
import { preparedStatement } from '../../platform/db/prepared.ts';
import { userFavorites } from '../../platform/db/schema/index.ts';

/** The user's explicit choices per model (a model without one follows its "shown by default"). */
export async function listFavoriteChoices(db: Db, userId: string): Promise<Map<string, boolean>> {
  const rows = await db.select().from(userFavorites).where(eq(userFavorites.userId, userId));
  return new Map(rows.map((r) => [r.modelId, r.favorite]));
}

export async function setFavorite(db: Db, userId: string, modelId: string, favorite: boolean): Promise<void> {
  await db
    .insert(userFavorites)
    .values({ userId, modelId, favorite })
    .onConflictDoUpdate({ target: [userFavorites.userId, userFavorites.modelId], set: { favorite } });
}

/**
 * The models the user may run (PUBLIC, PRIVATE granted to them, every model for ADMIN; never an archived one), by shown name, each with
 * their favourite choice (or the model's "shown by default"), in the wire shape: one prepared statement reading
 * compute_models, model_access and user_favorites (the compute-models domain's tables, read only).
 */
const available = preparedStatement<{ list: AvailableModel[] }>(
  'lamella_catalog_available_models',
  () => sql`select coalesce(json_agg(json_build_object('id', m.id, 'name', m.internal_name, 'displayName', m.display_name,
        'displayNameDe', m.display_name_de, 'accessType', m.access_type, 'isDefaultVisible', m.is_default_visible, 'favorite', coalesce(f.favorite, m.is_default_visible))
      order by m.display_name, m.id), '[]'::json) as list
    from compute_models m
    left join user_favorites f on f.user_id = ${sql.placeholder('userId')}::uuid and f.model_id = m.id
    where m.archived_at is null and (${sql.placeholder('isAdmin')}::boolean or m.access_type = 'PUBLIC'
      or exists(select 1 from model_access a where a.user_id = ${sql.placeholder('userId')}::uuid and a.model_id = m.id))`,
);

export async function availableModels(db: Db, userId: string, isAdmin: boolean): Promise<AvailableModel[]> {
  const [row] = await available(db, { userId, isAdmin });
  return row.list;
}
