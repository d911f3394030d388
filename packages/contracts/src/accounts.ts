import { Type, type Static } from 'typebox';

/** Model catalogue shapes (the accounts area lives in auth.ts, users.ts, two-factor.ts and system.ts). */
export const AvailableModel = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    displayName: Type.String(),
    /** The name for German readers set by staff (web lib/modelName.ts chooses by the UI language). */
    displayNameDe: Type.Optional(Type.Union([Type.String(), Type.Null()])),
    accessType: Type.Union([Type.Literal('PUBLIC'), Type.Literal('PRIVATE')]),
    isDefaultVisible: Type.Boolean(),
    favorite: Type.Boolean(),
  },
  { $id: 'AvailableModel' },
);
export type AvailableModel = Static<typeof AvailableModel>;
export const ModelNavItem = Type.Object(
  {
    id: Type.String(),
    displayName: Type.String(),
    displayNameDe: Type.Optional(Type.Union([Type.String(), Type.Null()])),
    label: Type.String(),
    path: Type.String(),
    modelId: Type.String(),
    accessType: Type.Union([Type.Literal('PUBLIC'), Type.Literal('PRIVATE')]),
  },
  { $id: 'ModelNavItem' },
);
export type ModelNavItem = Static<typeof ModelNavItem>;
export const FavoriteBody = Type.Object({ id: Type.String(), favorite: Type.Boolean() }, { additionalProperties: false });
