import { Type } from 'typebox';
import { AvailableModel, FavoriteBody, ModelNavItem } from '@lamella/contracts';
import type { Ctx, App } from '../../app.ts';
import { requireAuth } from '../../platform/auth/guard.ts';
import { notFound } from '../../platform/http/errors.ts';
import { listAccessibleModels, listFavoriteChoices, setFavorite, type ModelRow } from './repo.ts';

const navItem = (m: ModelRow) => ({
  id: m.id,
  displayName: m.displayName,
  label: m.displayName,
  path: `/models/${m.internalName.toLowerCase()}`,
  modelId: m.id,
  accessType: m.accessType,
});

/** Available models and favourites (header tabs and the "Manage favorite models" menu). */
export async function catalogRoutes(app: App, ctx: Ctx): Promise<void> {
  const favorites = async (userId: string, isAdmin: boolean) => {
    const [models, choices] = await Promise.all([listAccessibleModels(ctx.db, userId, isAdmin), listFavoriteChoices(ctx.db, userId)]);
    return models.map((m) => ({ model: m, favorite: choices.get(m.id) ?? m.isDefaultVisible }));
  };

  app.get(
    '/settings/available-models',
    { config: { auth: 'user' }, schema: { tags: ['models'], response: { 200: Type.Array(AvailableModel) } } },
    async (request) => {
      const auth = requireAuth(request);
      const list = await favorites(auth.user.id, auth.user.role === 'ADMIN');
      return list.map(({ model: m, favorite }) => ({
        id: m.id,
        name: m.internalName,
        displayName: m.displayName,
        accessType: m.accessType,
        isDefaultVisible: m.isDefaultVisible,
        favorite,
      }));
    },
  );

  app.get(
    '/users/favorites',
    { config: { auth: 'user' }, schema: { tags: ['models'], response: { 200: Type.Array(ModelNavItem) } } },
    async (request) => {
      const auth = requireAuth(request);
      return (await favorites(auth.user.id, auth.user.role === 'ADMIN')).filter((f) => f.favorite).map((f) => navItem(f.model));
    },
  );

  app.put(
    '/users/favorites',
    { config: { auth: 'user' }, schema: { tags: ['models'], body: FavoriteBody, response: { 200: Type.Array(ModelNavItem) } } },
    async (request) => {
      const auth = requireAuth(request);
      const isAdmin = auth.user.role === 'ADMIN';
      const models = await listAccessibleModels(ctx.db, auth.user.id, isAdmin);
      if (!models.some((m) => m.id === request.body.id)) throw notFound('model');
      await setFavorite(ctx.db, auth.user.id, request.body.id, request.body.favorite);
      return (await favorites(auth.user.id, isAdmin)).filter((f) => f.favorite).map((f) => navItem(f.model));
    },
  );
}
