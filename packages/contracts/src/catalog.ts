import { Type, type Static } from 'typebox';
import { AvailableModel, ModelNavItem } from './accounts.ts';
import { endpoint } from './endpoint.ts';

/** The models a user may run, and their favourites (header tabs, "Manage favorite models" menu). */
export const AvailableModelList = Type.Array(AvailableModel, { $id: 'AvailableModelList' });
export type AvailableModelList = Static<typeof AvailableModelList>;
export const ModelNavList = Type.Array(ModelNavItem, { $id: 'ModelNavList' });
export type ModelNavList = Static<typeof ModelNavList>;
export const SetFavoriteBody = Type.Object(
  { id: Type.String({ maxLength: 100 }), favorite: Type.Boolean() },
  { additionalProperties: false, $id: 'SetFavoriteBody' },
);
export type SetFavoriteBody = Static<typeof SetFavoriteBody>;

const tags = ['models'] as const;
export const catalogApi = {
  availableModels: endpoint({
    method: 'GET',
    path: '/settings/available-models',
    operationId: 'listAvailableModels',
    tags,
    response: { 200: AvailableModelList },
  }),
  favorites: endpoint({ method: 'GET', path: '/users/favorites', operationId: 'listFavoriteModels', tags, response: { 200: ModelNavList } }),
  setFavorite: endpoint({
    method: 'PUT',
    path: '/users/favorites',
    operationId: 'setFavoriteModel',
    tags,
    body: SetFavoriteBody,
    response: { 200: ModelNavList },
  }),
};
