import { Type, type Static, type TSchema } from 'typebox';
import { endpoint } from './endpoint.ts';

const Nullable = <T extends TSchema>(s: T) => Type.Union([s, Type.Null()]);
const Json = Type.Record(Type.String(), Type.Unknown());

/**
 * Customization groups (back-office.md §2 "Customization groups screen", §4 inheritance, §5, §7, §8): ADMIN
 * only, except the user-side list of a model's groups.
 */
export const CustomizationGroupParams = Type.Object({ groupId: Type.String({ format: 'uuid' }) }, { $id: 'CustomizationGroupParams' });
export const CustomizationMemberParams = Type.Object(
  { groupId: Type.String({ format: 'uuid' }), userId: Type.String({ format: 'uuid' }) },
  { $id: 'CustomizationMemberParams' },
);
export const CustomizationParentParams = Type.Object(
  { groupId: Type.String({ format: 'uuid' }), parentId: Type.String({ format: 'uuid' }) },
  { $id: 'CustomizationParentParams' },
);
export const CustomizationModelParams = Type.Object({ modelId: Type.String({ format: 'uuid' }) }, { $id: 'CustomizationModelParams' });

export const CustomizationParent = Type.Object(
  {
    parentId: Type.String(),
    /** 0 is the strongest parent. */
    priority: Type.Integer(),
    parent: Type.Object({ id: Type.String(), nameEn: Type.String(), nameDe: Type.String() }),
  },
  { $id: 'CustomizationParent' },
);
export type CustomizationParent = Static<typeof CustomizationParent>;

export const CustomizationMember = Type.Object(
  { id: Type.String(), name: Nullable(Type.String()), surname: Nullable(Type.String()), email: Type.String() },
  { $id: 'CustomizationMember' },
);
export type CustomizationMember = Static<typeof CustomizationMember>;

const groupProperties = {
  id: Type.String(),
  nameEn: Type.String(),
  nameDe: Type.String(),
  description: Nullable(Type.String()),
  modelId: Type.String(),
  model: Type.Object({ id: Type.String(), displayName: Type.String() }),
  /** The model version the group's members' jobs run with (issue 25: a customer's own trained version); null: the model's current version. */
  modelVersion: Nullable(Type.String()),
  members: Type.Array(CustomizationMember),
  parents: Type.Array(CustomizationParent),
  createdAt: Type.String(),
  updatedAt: Type.String(),
};
export const CustomizationGroup = Type.Object(groupProperties, { $id: 'CustomizationGroup' });
export type CustomizationGroup = Static<typeof CustomizationGroup>;
export const CustomizationGroupList = Type.Array(CustomizationGroup, { $id: 'CustomizationGroupList' });
/** A group after a change, with the success text of back-office §8. */
export const CustomizationGroupChanged = Type.Object({ ...groupProperties, message: Type.String() }, { $id: 'CustomizationGroupChanged' });
export type CustomizationGroupChanged = Static<typeof CustomizationGroupChanged>;

/** The group form. Names and model are required (checked by the server, naming each field). */
export const CustomizationGroupBody = Type.Object(
  {
    nameEn: Type.Optional(Type.String({ description: 'Required, at most 200 characters' })),
    nameDe: Type.Optional(Type.String({ description: 'Required, at most 200 characters' })),
    modelId: Type.Optional(Type.String({ description: 'Required: id of an existing model' })),
    description: Type.Optional(Nullable(Type.String({ description: 'At most 5000 characters' }))),
  },
  { additionalProperties: false, $id: 'CustomizationGroupBody' },
);
export type CustomizationGroupBody = Static<typeof CustomizationGroupBody>;

export const CustomizationGroupDeleted = Type.Object(
  { id: Type.String(), deleted: Type.Literal(true), message: Type.String() },
  { $id: 'CustomizationGroupDeleted' },
);
export type CustomizationGroupDeleted = Static<typeof CustomizationGroupDeleted>;

export const CustomizationMemberBody = Type.Object(
  { userId: Type.Optional(Type.String({ description: 'Required: id of an existing user' })) },
  { additionalProperties: false, $id: 'CustomizationMemberBody' },
);
export type CustomizationMemberBody = Static<typeof CustomizationMemberBody>;
export const CustomizationMemberChanged = Type.Object(
  { groupId: Type.String(), userId: Type.String(), message: Type.String() },
  { $id: 'CustomizationMemberChanged' },
);
export type CustomizationMemberChanged = Static<typeof CustomizationMemberChanged>;

/** Replaces the whole parent set; a missing priority is the position in the list. */
export const CustomizationParentsBody = Type.Object(
  {
    parents: Type.Array(
      Type.Object({
        parentId: Type.String({ maxLength: 40 }),
        priority: Type.Optional(Type.Integer({ description: 'A whole number of at least 0; 0 is the strongest' })),
      }),
      { maxItems: 1000 },
    ),
  },
  { additionalProperties: false, $id: 'CustomizationParentsBody' },
);
export type CustomizationParentsBody = Static<typeof CustomizationParentsBody>;

export const CustomizationChainEntry = Type.Object(
  {
    id: Type.String(),
    nameEn: Type.String(),
    nameDe: Type.String(),
    model: Type.Object({ id: Type.String(), displayName: Type.String() }),
    /** 0 is the strongest ancestor. */
    order: Type.Integer(),
    /** 1 = direct parent. */
    depth: Nullable(Type.Integer()),
    /** For direct parents. */
    priority: Nullable(Type.Integer()),
  },
  { $id: 'CustomizationChainEntry' },
);
export type CustomizationChainEntry = Static<typeof CustomizationChainEntry>;
export const CustomizationChain = Type.Array(CustomizationChainEntry, { $id: 'CustomizationChain' });

export const CustomizationSettings = Type.Object(
  { groupId: Type.String(), modelId: Type.String(), settings: Json, updatedAt: Type.String() },
  { $id: 'CustomizationSettings' },
);
export type CustomizationSettings = Static<typeof CustomizationSettings>;
export const CustomizationSettingsSaved = Type.Object(
  { ...CustomizationSettings.properties, message: Type.String() },
  { $id: 'CustomizationSettingsSaved' },
);
export type CustomizationSettingsSaved = Static<typeof CustomizationSettingsSaved>;
export const CustomizationSettingsBody = Type.Object({ settings: Json }, { additionalProperties: false, $id: 'CustomizationSettingsBody' });
export type CustomizationSettingsBody = Static<typeof CustomizationSettingsBody>;

/** Model defaults ← ancestors ← the group's own settings. */
export const CustomizationResolvedSettings = Type.Object(
  { groupId: Type.String(), modelId: Type.String(), version: Type.String(), settings: Json },
  { $id: 'CustomizationResolvedSettings' },
);
export type CustomizationResolvedSettings = Static<typeof CustomizationResolvedSettings>;

export const ModelSettingsDefaults = Type.Object(
  { modelId: Type.String(), version: Type.String(), source: Type.String(), defaults: Json, schema: Json },
  { $id: 'ModelSettingsDefaults' },
);
export type ModelSettingsDefaults = Static<typeof ModelSettingsDefaults>;

/** `settings` is any JSON value: the answer tells whether it matches the schema of the model (or the group's model). */
export const ValidateSettingsBody = Type.Object(
  {
    modelId: Type.Optional(Type.String({ maxLength: 40 })),
    groupId: Type.Optional(Type.String({ maxLength: 40 })),
    settings: Type.Optional(Type.Unknown()),
  },
  { additionalProperties: false, $id: 'ValidateSettingsBody' },
);
export type ValidateSettingsBody = Static<typeof ValidateSettingsBody>;
export const SettingsValidationError = Type.Object({ instancePath: Type.String(), message: Type.String() }, { $id: 'SettingsValidationError' });
export type SettingsValidationError = Static<typeof SettingsValidationError>;
/** null when valid, else the schema errors. */
export const SettingsValidationResult = Type.Union([Type.Array(SettingsValidationError), Type.Null()], { $id: 'SettingsValidationResult' });
export type SettingsValidationResult = Static<typeof SettingsValidationResult>;

export const ModelCustomization = Type.Object(
  { id: Type.String(), nameEn: Type.String(), nameDe: Type.String(), modelId: Type.String() },
  { $id: 'ModelCustomization' },
);
export type ModelCustomization = Static<typeof ModelCustomization>;
export const ModelCustomizationList = Type.Array(ModelCustomization, { $id: 'ModelCustomizationList' });

const tags = ['admin-customizations'] as const;
const base = '/admin/customizations';
export const customizationsApi = {
  listGroups: endpoint({
    method: 'GET',
    path: `${base}/groups`,
    operationId: 'listCustomizationGroups',
    tags,
    response: { 200: CustomizationGroupList },
  }),
  createGroup: endpoint({
    method: 'POST',
    path: `${base}/groups`,
    operationId: 'createCustomizationGroup',
    tags,
    body: CustomizationGroupBody,
    response: { 200: CustomizationGroupChanged },
  }),
  updateGroup: endpoint({
    method: 'PUT',
    path: `${base}/groups/:groupId`,
    operationId: 'updateCustomizationGroup',
    tags,
    params: CustomizationGroupParams,
    body: CustomizationGroupBody,
    response: { 200: CustomizationGroupChanged },
  }),
  deleteGroup: endpoint({
    method: 'DELETE',
    path: `${base}/groups/:groupId`,
    operationId: 'deleteCustomizationGroup',
    tags,
    params: CustomizationGroupParams,
    response: { 200: CustomizationGroupDeleted },
  }),
  cloneGroup: endpoint({
    method: 'POST',
    path: `${base}/groups/:groupId/clone`,
    operationId: 'cloneCustomizationGroup',
    tags,
    params: CustomizationGroupParams,
    response: { 200: CustomizationGroupChanged },
  }),
  addMember: endpoint({
    method: 'PUT',
    path: `${base}/groups/:groupId/members`,
    operationId: 'addCustomizationMember',
    tags,
    params: CustomizationGroupParams,
    body: CustomizationMemberBody,
    response: { 200: CustomizationMemberChanged },
  }),
  removeMember: endpoint({
    method: 'DELETE',
    path: `${base}/groups/:groupId/members/:userId`,
    operationId: 'removeCustomizationMember',
    tags,
    params: CustomizationMemberParams,
    response: { 200: CustomizationMemberChanged },
  }),
  setParents: endpoint({
    method: 'POST',
    path: `${base}/groups/:groupId/parents`,
    operationId: 'setCustomizationParents',
    tags,
    params: CustomizationGroupParams,
    body: CustomizationParentsBody,
    response: { 200: CustomizationGroupChanged },
  }),
  removeParent: endpoint({
    method: 'DELETE',
    path: `${base}/groups/:groupId/parents/:parentId`,
    operationId: 'removeCustomizationParent',
    tags,
    params: CustomizationParentParams,
    response: { 200: CustomizationGroupChanged },
  }),
  inheritanceChain: endpoint({
    method: 'GET',
    path: `${base}/groups/:groupId/inheritance-chain`,
    operationId: 'getCustomizationInheritanceChain',
    tags,
    params: CustomizationGroupParams,
    response: { 200: CustomizationChain },
  }),
  settings: endpoint({
    method: 'GET',
    path: `${base}/groups/:groupId/settings`,
    operationId: 'getCustomizationSettings',
    tags,
    params: CustomizationGroupParams,
    response: { 200: CustomizationSettings },
  }),
  saveSettings: endpoint({
    method: 'PUT',
    path: `${base}/groups/:groupId/settings`,
    operationId: 'saveCustomizationSettings',
    tags,
    params: CustomizationGroupParams,
    body: CustomizationSettingsBody,
    response: { 200: CustomizationSettingsSaved },
  }),
  resolvedSettings: endpoint({
    method: 'GET',
    path: `${base}/groups/:groupId/resolved-settings`,
    operationId: 'getCustomizationResolvedSettings',
    tags,
    params: CustomizationGroupParams,
    response: { 200: CustomizationResolvedSettings },
  }),
  modelDefaults: endpoint({
    method: 'GET',
    path: `${base}/models/:modelId/defaults`,
    operationId: 'getModelSettingsDefaults',
    tags,
    params: CustomizationModelParams,
    response: { 200: ModelSettingsDefaults },
  }),
  validate: endpoint({
    method: 'POST',
    path: `${base}/validate`,
    operationId: 'validateCustomizationSettings',
    tags,
    body: ValidateSettingsBody,
    response: { 200: SettingsValidationResult },
  }),
  /** User side (admin sandbox, "Params identification"): the groups of a model the caller may use. */
  forModel: endpoint({
    method: 'GET',
    path: '/models/:modelId/customizations',
    operationId: 'listModelCustomizations',
    tags: ['models'],
    params: CustomizationModelParams,
    response: { 200: ModelCustomizationList },
  }),
};
