import { Type, type Static, type TSchema } from 'typebox';
import { IdParams } from './common.ts';
import { endpoint } from './endpoint.ts';

/**
 * The compute back-office (back-office.md §2 "Models" and "Servers", §7 Models, Servers and launchers): the
 * models registry with access grants, example results and manuals, and the servers (nodes) with their
 * launchers (executors). ADMIN only, except the user-side manual and example of a model the caller may use.
 */
const Nullable = <T extends TSchema>(s: T) => Type.Union([s, Type.Null()]);
const AccessType = Type.Union([Type.Literal('PUBLIC'), Type.Literal('PRIVATE')]);
const ManualPosition = Type.Union([Type.Literal('TOP'), Type.Literal('BOTTOM')]);
const ManualLanguage = Type.Union([Type.Literal('en'), Type.Literal('de')]);
/** A version may be typed as a number in a form; it is stored as text. */
const VersionInput = Type.Union([Type.String({ maxLength: 100 }), Type.Number()]);

// ---- Models -------------------------------------------------------------------------------------------------

export const ModelStats = Type.Object(
  {
    lastWeekCount: Type.Integer(),
    lastMonthCount: Type.Integer(),
    totalCount: Type.Integer(),
    /** Seconds: mean(finishedAt − startedAt) of finished jobs. */
    averageJobTime: Nullable(Type.Number()),
    /** Seconds: mean(startedAt − createdAt) of started jobs. */
    averageWaitTime: Nullable(Type.Number()),
  },
  { $id: 'ModelStats' },
);
export type ModelStats = Static<typeof ModelStats>;
/** Distinct training-allowed images run in the model. */
export const ModelTrainable = Type.Object({ count: Type.Integer() }, { $id: 'ModelTrainable' });

const modelFields = {
  id: Type.String(),
  internalName: Type.String(),
  /** Same as internalName (Model (short) calls it `name`). */
  name: Type.String(),
  routingPath: Type.String(),
  storagePath: Type.String(),
  displayName: Type.String(),
  /** The name shown to German readers (null: a built-in model's shipped German name, else displayName). */
  displayNameDe: Type.Optional(Nullable(Type.String())),
  version: Type.String(),
  accessType: AccessType,
  isDefaultVisible: Type.Boolean(),
  builtIn: Type.Boolean(),
  /** When the model was archived (hidden from users, its jobs kept); null: in use. A model with jobs is archived, not deleted. */
  archivedAt: Type.Optional(Nullable(Type.String())),
  createdAt: Type.String(),
  updatedAt: Type.String(),
};
export const ComputeModel = Type.Object(
  { ...modelFields, stats: Type.Optional(ModelStats), trainable: Type.Optional(ModelTrainable) },
  { $id: 'ComputeModel' },
);
export type ComputeModel = Static<typeof ComputeModel>;
export const ComputeModelList = Type.Array(ComputeModel, { $id: 'ComputeModelList' });
export const UpdatedComputeModel = Type.Object({ ...modelFields, message: Type.String() }, { $id: 'UpdatedComputeModel' });
export type UpdatedComputeModel = Static<typeof UpdatedComputeModel>;
export const ModelStatsEntry = Type.Object({ id: Type.String(), stats: ModelStats, trainable: ModelTrainable }, { $id: 'ModelStatsEntry' });
export const ModelStatsList = Type.Array(ModelStatsEntry, { $id: 'ModelStatsList' });
export type ModelStatsEntry = Static<typeof ModelStatsEntry>;
export const ModelShort = Type.Object(
  { id: Type.String(), displayName: Type.String(), name: Type.String(), displayNameDe: Type.Optional(Nullable(Type.String())) },
  { $id: 'ModelShort' },
);
export type ModelShort = Static<typeof ModelShort>;
export const ModelShortList = Type.Array(ModelShort, { $id: 'ModelShortList' });

/** Create and update: every field is checked by the server, which names each missing or wrong one. */
export const ComputeModelBody = Type.Object(
  {
    internalName: Type.Optional(Type.String({ maxLength: 200 })),
    /** Alias of internalName. */
    name: Type.Optional(Type.String({ maxLength: 200 })),
    routingPath: Type.Optional(Type.String({ maxLength: 500 })),
    storagePath: Type.Optional(Type.String({ maxLength: 1000 })),
    displayName: Type.Optional(Type.String({ maxLength: 200 })),
    /** German display name; empty or null clears it; absent on an update keeps it. */
    displayNameDe: Type.Optional(Nullable(Type.String({ maxLength: 200 }))),
    version: Type.Optional(VersionInput),
    /** Default PRIVATE. */
    accessType: Type.Optional(AccessType),
    /** Default true. */
    isDefaultVisible: Type.Optional(Type.Boolean()),
  },
  { $id: 'ComputeModelBody' },
);
export type ComputeModelBody = Static<typeof ComputeModelBody>;

export const ComputeDeleted = Type.Object({ id: Type.String(), deleted: Type.Boolean() }, { $id: 'ComputeDeleted' });
export type ComputeDeleted = Static<typeof ComputeDeleted>;

export const ModelVersion = Type.Object(
  { version: Type.String(), isCurrent: Type.Boolean(), hasSettingsSchema: Type.Boolean(), createdAt: Type.String() },
  { $id: 'ModelVersion' },
);
export type ModelVersion = Static<typeof ModelVersion>;
export const ModelVersionList = Type.Array(ModelVersion, { $id: 'ModelVersionList' });

export const ModelAccessGrant = Type.Object(
  {
    id: Type.String(),
    userId: Type.String(),
    user: Type.Object({ name: Nullable(Type.String()), surname: Nullable(Type.String()), email: Type.String() }),
    createdAt: Type.String(),
  },
  { $id: 'ModelAccessGrant' },
);
export type ModelAccessGrant = Static<typeof ModelAccessGrant>;
export const ModelAccessList = Type.Array(ModelAccessGrant, { $id: 'ModelAccessList' });
export const GrantModelAccessBody = Type.Object({ userId: Type.Optional(Type.String({ maxLength: 100 })) }, { $id: 'GrantModelAccessBody' });
export type GrantModelAccessBody = Static<typeof GrantModelAccessBody>;
export const ModelAccessChanged = Type.Object(
  { modelId: Type.String(), userId: Type.String(), message: Type.String() },
  { $id: 'ModelAccessChanged' },
);
export type ModelAccessChanged = Static<typeof ModelAccessChanged>;
export const ModelAccessParams = Type.Object(
  { id: Type.String({ format: 'uuid' }), userId: Type.String({ format: 'uuid' }) },
  { $id: 'ModelAccessParams' },
);

export const ModelExample = Type.Object({ contentEn: Type.String(), contentDe: Type.String() }, { $id: 'ModelExample' });
export type ModelExample = Static<typeof ModelExample>;
/** Rich text (HTML), sanitised by the server; both languages are required. */
export const ModelExampleBody = Type.Object(
  { contentEn: Type.Optional(Type.String({ maxLength: 2_000_000 })), contentDe: Type.Optional(Type.String({ maxLength: 2_000_000 })) },
  { $id: 'ModelExampleBody' },
);
export type ModelExampleBody = Static<typeof ModelExampleBody>;
export const SavedModelExample = Type.Object({ ...ModelExample.properties, message: Type.String() }, { $id: 'SavedModelExample' });

export const ModelManualParams = Type.Object(
  { id: Type.String({ format: 'uuid' }), position: ManualPosition, language: ManualLanguage },
  { $id: 'ModelManualParams' },
);
export const ModelManual = Type.Object(
  { modelId: Type.String(), position: ManualPosition, language: ManualLanguage, text: Type.String(), updatedAt: Nullable(Type.String()) },
  { $id: 'ModelManual' },
);
export type ModelManual = Static<typeof ModelManual>;
/** An empty text removes the info box. */
export const ModelManualBody = Type.Object(
  { text: Type.Optional(Type.String({ maxLength: 2_000_000 })), position: Type.Optional(Type.String()), language: Type.Optional(Type.String()) },
  { $id: 'ModelManualBody' },
);
export type ModelManualBody = Static<typeof ModelManualBody>;
export const SavedModelManual = Type.Object({ ...ModelManual.properties, message: Type.String() }, { $id: 'SavedModelManual' });

export const UserModelManualParams = Type.Object(
  { modelId: Type.String({ format: 'uuid' }), position: ManualPosition, language: ManualLanguage },
  { $id: 'UserModelManualParams' },
);
export const ModelIdParams = Type.Object({ modelId: Type.String({ format: 'uuid' }) }, { $id: 'ModelIdParams' });

// ---- Servers and launchers ----------------------------------------------------------------------------------

/**
 * Exactly one state, from the launcher's settings and its last health check: stopped: not enabled; updating:
 * asked to take a version; running: enabled and its last health answer is within the health window (15 s);
 * failed: no answer and its process could not start or keeps dying (local launchers); notResponding: enabled, no
 * answer within the window.
 */
export const LauncherState = Type.Union([
  Type.Literal('stopped'),
  Type.Literal('updating'),
  Type.Literal('running'),
  Type.Literal('failed'),
  Type.Literal('notResponding'),
]);
export type LauncherState = Static<typeof LauncherState>;
export const ReportedModel = Type.Object({ name: Type.String(), versions: Type.Array(Type.String()) });

export const Launcher = Type.Object(
  {
    id: Type.String(),
    nodeId: Type.String(),
    port: Type.Integer(),
    gpuAffinity: Type.Integer(),
    version: Type.String(),
    isEnabled: Type.Boolean(),
    isUpdating: Type.Boolean(),
    envVariables: Type.Record(Type.String(), Type.String()),
    state: LauncherState,
    /** Why a failed launcher failed (its last output), else null. */
    failure: Nullable(Type.String()),
    /** state is notResponding (kept for older clients). */
    notResponding: Type.Boolean(),
    betaBadge: Type.Boolean(),
    reportedModels: Type.Array(ReportedModel),
    busy: Type.Boolean(),
    lastSeenAt: Nullable(Type.String()),
    createdAt: Type.String(),
  },
  { $id: 'Launcher' },
);
export type Launcher = Static<typeof Launcher>;

export const NodeStatus = Type.Union([Type.Literal('ONLINE'), Type.Literal('OFFLINE'), Type.Literal('UNKNOWN')]);
export const NodeType = Type.Union([Type.Literal('ON_PREMISE'), Type.Literal('CLOUD')]);
export type NodeType = Static<typeof NodeType>;
export const ComputeNode = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    ip: Type.String(),
    description: Type.String(),
    nodeType: NodeType,
    status: NodeStatus,
    provider: Nullable(Type.String()),
    instanceId: Nullable(Type.String()),
    /** 'STARTING' | 'STOPPING' while a cloud start/stop is under way, else null. */
    transition: Nullable(Type.String()),
    canStart: Type.Boolean(),
    canStop: Type.Boolean(),
    canAddLauncher: Type.Boolean(),
    executorCount: Type.Integer(),
    executors: Type.Array(Launcher),
    createdAt: Type.String(),
  },
  { $id: 'ComputeNode' },
);
export type ComputeNode = Static<typeof ComputeNode>;
export const ComputeNodeList = Type.Array(ComputeNode, { $id: 'ComputeNodeList' });

export const CreateNodeBody = Type.Object(
  {
    name: Type.Optional(Type.String({ maxLength: 200 })),
    /** IPv4; unique among servers. */
    ip: Type.Optional(Type.String({ maxLength: 100 })),
    description: Type.Optional(Type.String({ maxLength: 2000 })),
    /** Default ON_PREMISE. */
    nodeType: Type.Optional(NodeType),
    /** CLOUD only: OVH or local. */
    provider: Type.Optional(Nullable(Type.String({ maxLength: 50 }))),
    /** CLOUD only. */
    instanceId: Type.Optional(Nullable(Type.String({ maxLength: 200 }))),
  },
  { $id: 'CreateNodeBody' },
);
export type CreateNodeBody = Static<typeof CreateNodeBody>;
export const NodeActionAnswer = Type.Object({ id: Type.String(), message: Type.String() }, { $id: 'NodeActionAnswer' });

export const CreateLauncherBody = Type.Object(
  {
    version: Type.Optional(VersionInput),
    /** Default 8000; unique among the launchers of servers with the same IP. */
    port: Type.Optional(Nullable(Type.Union([Type.Integer(), Type.String({ maxLength: 10 })]))),
    /** Default 0. */
    gpuAffinity: Type.Optional(Nullable(Type.Union([Type.Integer(), Type.String({ maxLength: 10 })]))),
    /** An object of strings, or its JSON text. */
    envVariables: Type.Optional(
      Nullable(
        Type.Union([Type.Record(Type.String(), Type.Union([Type.String(), Type.Number(), Type.Boolean()])), Type.String({ maxLength: 20_000 })]),
      ),
    ),
    nodeId: Type.Optional(Type.String({ maxLength: 100 })),
  },
  { $id: 'CreateLauncherBody' },
);
export type CreateLauncherBody = Static<typeof CreateLauncherBody>;
/** deployed: the new launcher answered its health check (else message says it did not, and where it was asked). */
export const CreatedLauncher = Type.Object({ ...Launcher.properties, deployed: Type.Boolean(), message: Type.String() }, { $id: 'CreatedLauncher' });
export type CreatedLauncher = Static<typeof CreatedLauncher>;

export const LauncherTestAnswer = Type.Object(
  {
    isConnected: Type.Boolean(),
    version: Type.Optional(Nullable(Type.String())),
    models: Type.Optional(Type.Array(ReportedModel)),
    message: Type.String(),
  },
  { $id: 'LauncherTestAnswer' },
);
export type LauncherTestAnswer = Static<typeof LauncherTestAnswer>;
/**
 * The versions the reachable launchers report (GET /health): the only ones "Update All Launchers" offers. Add Launcher
 * also offers the releases this Lamella build ships (LauncherVersionChoices).
 */
export const LauncherVersionList = Type.Array(Type.String(), { $id: 'LauncherVersionList' });
/** Add Launcher's version choices: what the reachable launchers report, and the releases this Lamella build ships. */
export const LauncherVersionChoices = Type.Object(
  { reported: Type.Array(Type.String()), releases: Type.Array(Type.String()) },
  { $id: 'LauncherVersionChoices' },
);
export type LauncherVersionChoices = Static<typeof LauncherVersionChoices>;
export const UpdateLaunchersBody = Type.Object({ version: Type.Optional(VersionInput) }, { $id: 'UpdateLaunchersBody' });
export type UpdateLaunchersBody = Static<typeof UpdateLaunchersBody>;
export const UpdateLaunchersAnswer = Type.Object(
  {
    version: Type.String(),
    executors: Type.Array(Type.Object({ id: Type.String(), answered: Type.Boolean(), status: Nullable(Type.Integer()) })),
    message: Type.String(),
  },
  { $id: 'UpdateLaunchersAnswer' },
);
export type UpdateLaunchersAnswer = Static<typeof UpdateLaunchersAnswer>;

const modelTags = ['admin-models'] as const;
const userModelTags = ['models'] as const;
export const computeModelsApi = {
  list: endpoint({
    method: 'GET',
    path: '/admin/compute-models',
    operationId: 'listComputeModels',
    tags: modelTags,
    response: { 200: ComputeModelList },
  }),
  stats: endpoint({
    method: 'GET',
    path: '/admin/compute-models/stats',
    operationId: 'listComputeModelStats',
    tags: modelTags,
    response: { 200: ModelStatsList },
  }),
  short: endpoint({
    method: 'GET',
    path: '/admin/compute-models/list',
    operationId: 'listComputeModelNames',
    tags: modelTags,
    response: { 200: ModelShortList },
  }),
  create: endpoint({
    method: 'POST',
    path: '/admin/compute-models',
    operationId: 'createComputeModel',
    tags: modelTags,
    body: ComputeModelBody,
    response: { 200: ComputeModel },
  }),
  update: endpoint({
    method: 'PUT',
    path: '/admin/compute-models/:id',
    operationId: 'updateComputeModel',
    tags: modelTags,
    params: IdParams,
    body: ComputeModelBody,
    response: { 200: UpdatedComputeModel },
  }),
  remove: endpoint({
    method: 'DELETE',
    path: '/admin/compute-models/:id',
    operationId: 'deleteComputeModel',
    tags: modelTags,
    params: IdParams,
    response: { 200: ComputeDeleted },
  }),
  archive: endpoint({
    method: 'POST',
    path: '/admin/compute-models/:id/archive',
    operationId: 'archiveComputeModel',
    tags: modelTags,
    summary: 'Hides a model from users and keeps its jobs (a model with jobs cannot be deleted)',
    params: IdParams,
    response: { 200: ComputeModel },
  }),
  unarchive: endpoint({
    method: 'POST',
    path: '/admin/compute-models/:id/unarchive',
    operationId: 'unarchiveComputeModel',
    tags: modelTags,
    summary: 'Makes an archived model available again',
    params: IdParams,
    response: { 200: ComputeModel },
  }),
  versions: endpoint({
    method: 'GET',
    path: '/admin/compute-models/:id/versions',
    operationId: 'listComputeModelVersions',
    tags: modelTags,
    params: IdParams,
    response: { 200: ModelVersionList },
  }),
  access: endpoint({
    method: 'GET',
    path: '/admin/compute-models/:id/access',
    operationId: 'listComputeModelAccess',
    tags: modelTags,
    params: IdParams,
    response: { 200: ModelAccessList },
  }),
  grant: endpoint({
    method: 'POST',
    path: '/admin/compute-models/:id/access',
    operationId: 'grantComputeModelAccess',
    tags: modelTags,
    params: IdParams,
    body: GrantModelAccessBody,
    response: { 200: ModelAccessChanged },
  }),
  revoke: endpoint({
    method: 'DELETE',
    path: '/admin/compute-models/:id/access/:userId',
    operationId: 'revokeComputeModelAccess',
    tags: modelTags,
    params: ModelAccessParams,
    response: { 200: ModelAccessChanged },
  }),
  example: endpoint({
    method: 'GET',
    path: '/admin/compute-models/:id/example',
    operationId: 'getComputeModelExample',
    tags: modelTags,
    params: IdParams,
    response: { 200: ModelExample },
  }),
  saveExample: endpoint({
    method: 'PUT',
    path: '/admin/compute-models/:id/example',
    operationId: 'saveComputeModelExample',
    tags: modelTags,
    params: IdParams,
    body: ModelExampleBody,
    response: { 200: SavedModelExample },
  }),
  manual: endpoint({
    method: 'GET',
    path: '/admin/compute-models/:id/manual/:position/:language',
    operationId: 'getComputeModelManual',
    tags: modelTags,
    params: ModelManualParams,
    response: { 200: ModelManual },
  }),
  saveManual: endpoint({
    method: 'PUT',
    path: '/admin/compute-models/:id/manual',
    operationId: 'saveComputeModelManual',
    tags: modelTags,
    params: IdParams,
    body: ModelManualBody,
    response: { 200: SavedModelManual },
  }),
  userManual: endpoint({
    method: 'GET',
    path: '/models/:modelId/manual/:position/:language',
    operationId: 'getModelManual',
    tags: userModelTags,
    params: UserModelManualParams,
    response: { 200: ModelManual },
  }),
  userExample: endpoint({
    method: 'GET',
    path: '/models/:modelId/example',
    operationId: 'getModelExample',
    tags: userModelTags,
    params: ModelIdParams,
    response: { 200: ModelExample },
  }),
};

const nodeTags = ['admin-servers'] as const;
export const computeNodesApi = {
  list: endpoint({ method: 'GET', path: '/admin/nodes', operationId: 'listNodes', tags: nodeTags, response: { 200: ComputeNodeList } }),
  create: endpoint({
    method: 'POST',
    path: '/admin/nodes',
    operationId: 'createNode',
    tags: nodeTags,
    body: CreateNodeBody,
    response: { 200: ComputeNode },
  }),
  remove: endpoint({
    method: 'DELETE',
    path: '/admin/nodes/:id',
    operationId: 'deleteNode',
    tags: nodeTags,
    params: IdParams,
    response: { 200: ComputeDeleted },
  }),
  start: endpoint({
    method: 'PUT',
    path: '/admin/nodes/:id/start',
    operationId: 'startNode',
    tags: nodeTags,
    params: IdParams,
    response: { 200: NodeActionAnswer },
  }),
  stop: endpoint({
    method: 'PUT',
    path: '/admin/nodes/:id/stop',
    operationId: 'stopNode',
    tags: nodeTags,
    params: IdParams,
    response: { 200: NodeActionAnswer },
  }),
  createLauncher: endpoint({
    method: 'POST',
    path: '/admin/executors',
    operationId: 'createLauncher',
    tags: nodeTags,
    body: CreateLauncherBody,
    response: { 200: CreatedLauncher },
  }),
  removeLauncher: endpoint({
    method: 'DELETE',
    path: '/admin/executors/:id',
    operationId: 'deleteLauncher',
    tags: nodeTags,
    params: IdParams,
    response: { 200: ComputeDeleted },
  }),
  testLauncher: endpoint({
    method: 'POST',
    path: '/admin/executors/:id/test',
    operationId: 'testLauncher',
    tags: nodeTags,
    params: IdParams,
    response: { 200: LauncherTestAnswer },
  }),
  versions: endpoint({
    method: 'GET',
    path: '/admin/executors/versions',
    operationId: 'listLauncherVersions',
    tags: nodeTags,
    response: { 200: LauncherVersionList },
  }),
  versionChoices: endpoint({
    method: 'GET',
    path: '/admin/executors/version-choices',
    operationId: 'listLauncherVersionChoices',
    tags: nodeTags,
    summary: 'Versions Add Launcher offers: reported by the launchers, and the releases of this build',
    response: { 200: LauncherVersionChoices },
  }),
  updateAll: endpoint({
    method: 'PUT',
    path: '/admin/executors',
    operationId: 'updateAllLaunchers',
    tags: nodeTags,
    body: UpdateLaunchersBody,
    response: { 200: UpdateLaunchersAnswer },
  }),
};
