import { Type, type Static } from 'typebox';
import { FileDownload, IdParams, NoContent, StatusOk } from './common.ts';
import { endpoint } from './endpoint.ts';
import { JobStatus } from './jobs.ts';

/**
 * Projects group a user's jobs and can be shared by e-mail address (user-app.md: delete, open by ?project=,
 * PROJECT_SHARED notification). Sharing answers the same for every address: a known one gets the share at
 * once, an unknown one an invitation mail and the share when that address signs up.
 */
export const Project = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    description: Type.Union([Type.String(), Type.Null()]),
    isOwner: Type.Boolean(),
    /** The caller's access: OWNER, or the role it is shared with them as (a VIEWER only reads). */
    access: Type.Union([Type.Literal('OWNER'), Type.Literal('EDITOR'), Type.Literal('VIEWER')]),
    ownerName: Type.String(),
    /** The project settings template applied to the project (null: none). */
    templateId: Type.Union([Type.String(), Type.Null()]),
    imageCount: Type.Integer(),
    createdAt: Type.String(),
  },
  { $id: 'Project' },
);
export type Project = Static<typeof Project>;
export const ProjectList = Type.Array(Project, { $id: 'ProjectList' });
export type ProjectList = Static<typeof ProjectList>;
export const CreateProjectBody = Type.Object(
  { name: Type.String({ maxLength: 200 }), description: Type.Optional(Type.String({ maxLength: 2000 })) },
  { additionalProperties: false, $id: 'CreateProjectBody' },
);
export type CreateProjectBody = Static<typeof CreateProjectBody>;
export const ShareRole = Type.Union([Type.Literal('VIEWER'), Type.Literal('EDITOR')], { $id: 'ShareRole' });
export type ShareRole = Static<typeof ShareRole>;
export const ShareProjectBody = Type.Object(
  { email: Type.String({ maxLength: 254 }), role: Type.Optional(ShareRole) },
  { additionalProperties: false, $id: 'ShareProjectBody' },
);
export type ShareProjectBody = Static<typeof ShareProjectBody>;

/** Rename, describe (empty text clears it) or apply a settings template (null removes it); owner or EDITOR. */
export const UpdateProjectBody = Type.Object(
  {
    name: Type.Optional(Type.String({ maxLength: 200 })),
    description: Type.Optional(Type.Union([Type.String({ maxLength: 2000 }), Type.Null()])),
    templateId: Type.Optional(Type.Union([Type.String({ format: 'uuid' }), Type.Null()])),
  },
  { additionalProperties: false, $id: 'UpdateProjectBody' },
);
export type UpdateProjectBody = Static<typeof UpdateProjectBody>;

/** One person with access to a project (the owner lists them; EDITOR and VIEWER see them too). */
export const ProjectMember = Type.Object(
  {
    userId: Type.String(),
    email: Type.String(),
    name: Type.String(),
    role: Type.Union([Type.Literal('OWNER'), Type.Literal('EDITOR'), Type.Literal('VIEWER')]),
  },
  { $id: 'ProjectMember' },
);
export type ProjectMember = Static<typeof ProjectMember>;
/** Who has access (owner first), and the invited addresses that have not accepted yet (all alike, account or not). */
export const ProjectAccess = Type.Object(
  {
    members: Type.Array(ProjectMember),
    invitations: Type.Array(Type.Object({ email: Type.String(), role: ShareRole })),
  },
  { $id: 'ProjectAccess' },
);
export type ProjectAccess = Static<typeof ProjectAccess>;
export const ProjectMemberParams = Type.Object(
  { id: Type.String({ format: 'uuid' }), userId: Type.String({ format: 'uuid' }) },
  { $id: 'ProjectMemberParams' },
);
export const ProjectInvitationQuery = Type.Object({ email: Type.String({ maxLength: 254 }) }, { $id: 'ProjectInvitationQuery' });
/**
 * A project invitation waiting for the caller's answer (issue 28 item 4): sharing with any address makes one, and
 * the project's access list shows it the same way until the invitee accepts. Notification PROJECT_INVITATION
 * (payload `{ invitationId, projectName }`).
 */
export const MyProjectInvitation = Type.Object(
  { id: Type.String(), projectId: Type.String(), projectName: Type.String(), role: ShareRole },
  { $id: 'MyProjectInvitation' },
);
export type MyProjectInvitation = Static<typeof MyProjectInvitation>;
export const MyProjectInvitationList = Type.Array(MyProjectInvitation, { $id: 'MyProjectInvitationList' });
export const ProjectInvitationAnswer = Type.Object(
  { projectId: Type.String(), accepted: Type.Boolean(), message: Type.String() },
  { $id: 'ProjectInvitationAnswer' },
);
export type ProjectInvitationAnswer = Static<typeof ProjectInvitationAnswer>;
/** Invitations one user may send a day (PROJECT_INVITES_PER_DAY on the server, default). */
export const PROJECT_INVITES_PER_DAY = 20;
export const ProjectImageParams = Type.Object(
  { id: Type.String({ format: 'uuid' }), imageId: Type.String({ format: 'uuid' }) },
  { $id: 'ProjectImageParams' },
);

/** An image of a project, with the latest jobs run on it (newest first). */
export const ProjectImage = Type.Object(
  {
    id: Type.String(),
    orginalFilename: Type.String(),
    width: Type.Integer(),
    height: Type.Integer(),
    addedAt: Type.String(),
    jobs: Type.Array(Type.Object({ id: Type.String(), modelName: Type.String(), status: JobStatus, createdAt: Type.String() })),
  },
  { $id: 'ProjectImage' },
);
export type ProjectImage = Static<typeof ProjectImage>;
export const ProjectImageList = Type.Array(ProjectImage, { $id: 'ProjectImageList' });
export type ProjectImageList = Static<typeof ProjectImageList>;
/** Adds the caller's own images (from the library) to the project; already held images are kept once. */
export const AddProjectImagesBody = Type.Object(
  { imageIds: Type.Array(Type.String({ format: 'uuid' }), { minItems: 1, maxItems: 100 }) },
  { additionalProperties: false, $id: 'AddProjectImagesBody' },
);
export type AddProjectImagesBody = Static<typeof AddProjectImagesBody>;

/** A project settings template a project can apply (its settings stay on the server). */
export const ProjectTemplateOption = Type.Object(
  { id: Type.String(), name: Type.String(), description: Type.Union([Type.String(), Type.Null()]) },
  { $id: 'ProjectTemplateOption' },
);
export type ProjectTemplateOption = Static<typeof ProjectTemplateOption>;
export const ProjectTemplateOptionList = Type.Array(ProjectTemplateOption, { $id: 'ProjectTemplateOptionList' });

/**
 * A job of the project as a field shows it (issue 24): version, calibration, mask, crop and its key values (grain
 * size G and N_A/L̄, thickness, crack length, area fraction) so that members can judge and accept it.
 */
export const ProjectFieldJob = Type.Object(
  {
    id: Type.String(),
    // JobStatus without its $id: this object appears several times in one response
    status: Type.Union([Type.Literal('NEW'), Type.Literal('PENDING'), Type.Literal('FINISHED'), Type.Literal('FAILED'), Type.Literal('CACHED')]),
    modelVersion: Type.String(),
    createdAt: Type.String(),
    finishedAt: Type.Union([Type.String(), Type.Null()]),
    /** µm per pixel the job measured with (null: not calibrated) and where it came from. */
    pixelSizeUm: Type.Union([Type.Number(), Type.Null()]),
    calibrationSource: Type.Union([Type.String(), Type.Null()]),
    withMasks: Type.Boolean(),
    cropped: Type.Boolean(),
    /** The key measurements of the result by their keys (astmGPlanimetric, grainsPerMm2, …); empty without a result. */
    values: Type.Record(Type.String(), Type.Number()),
  },
  // no $id: it appears several times in ProjectFieldModel (a named schema may be referenced once per response)
);
export type ProjectFieldJob = Static<typeof ProjectFieldJob>;
/** One model's value of a field: the job that represents it, whether a member accepted (locked) it, the others. */
export const ProjectFieldModel = Type.Object(
  {
    modelId: Type.String(),
    modelName: Type.String(),
    displayName: Type.String(),
    displayNameDe: Type.Union([Type.String(), Type.Null()]),
    /** The field's job: the accepted one, else the newest finished job of the image started in the project. */
    job: Type.Union([ProjectFieldJob, Type.Null()]),
    accepted: Type.Boolean(),
    acceptedAt: Type.Union([Type.String(), Type.Null()]),
    /** A finished job newer than the accepted one (it does not replace it until accepted). */
    newer: Type.Union([ProjectFieldJob, Type.Null()]),
    /** Every job of this image and model started in the project, newest first. */
    jobs: Type.Array(ProjectFieldJob),
  },
  { $id: 'ProjectFieldModel' },
);
export type ProjectFieldModel = Static<typeof ProjectFieldModel>;
/** A field of the project: one of its images with, per model, the job that represents it. */
export const ProjectField = Type.Object(
  {
    imageId: Type.String(),
    orginalFilename: Type.String(),
    width: Type.Integer(),
    height: Type.Integer(),
    addedAt: Type.String(),
    models: Type.Array(ProjectFieldModel),
  },
  { $id: 'ProjectField' },
);
export type ProjectField = Static<typeof ProjectField>;
export const ProjectFieldList = Type.Array(ProjectField, { $id: 'ProjectFieldList' });
export type ProjectFieldList = Static<typeof ProjectFieldList>;
export const ProjectFieldParams = Type.Object(
  { id: Type.String({ format: 'uuid' }), imageId: Type.String({ format: 'uuid' }), modelId: Type.String({ format: 'uuid' }) },
  { $id: 'ProjectFieldParams' },
);
export const AcceptProjectFieldBody = Type.Object(
  { jobId: Type.String({ format: 'uuid' }) },
  { additionalProperties: false, $id: 'AcceptProjectFieldBody' },
);
export type AcceptProjectFieldBody = Static<typeof AcceptProjectFieldBody>;
export const ProjectJobParams = Type.Object(
  { id: Type.String({ format: 'uuid' }), jobId: Type.String({ format: 'uuid' }) },
  { $id: 'ProjectJobParams' },
);

const tags = ['projects'] as const;
export const projectsApi = {
  list: endpoint({ method: 'GET', path: '/projects', operationId: 'listProjects', tags, response: { 200: ProjectList } }),
  create: endpoint({ method: 'POST', path: '/projects', operationId: 'createProject', tags, body: CreateProjectBody, response: { 200: Project } }),
  remove: endpoint({
    method: 'DELETE',
    path: '/projects/:id',
    operationId: 'deleteProject',
    tags,
    params: IdParams,
    response: { 204: NoContent },
  }),
  templates: endpoint({
    method: 'GET',
    path: '/projects/settings-templates',
    operationId: 'listProjectTemplateOptions',
    tags,
    response: { 200: ProjectTemplateOptionList },
  }),
  get: endpoint({ method: 'GET', path: '/projects/:id', operationId: 'getProject', tags, params: IdParams, response: { 200: Project } }),
  update: endpoint({
    method: 'PATCH',
    path: '/projects/:id',
    operationId: 'updateProject',
    tags,
    params: IdParams,
    body: UpdateProjectBody,
    response: { 200: Project },
  }),
  access: endpoint({
    method: 'GET',
    path: '/projects/:id/access',
    operationId: 'listProjectAccess',
    tags,
    params: IdParams,
    response: { 200: ProjectAccess },
  }),
  revoke: endpoint({
    method: 'DELETE',
    path: '/projects/:id/access/:userId',
    operationId: 'revokeProjectAccess',
    tags,
    params: ProjectMemberParams,
    response: { 204: NoContent },
  }),
  myInvitations: endpoint({
    method: 'GET',
    path: '/projects/invitations',
    operationId: 'listMyProjectInvitations',
    tags,
    summary: "The caller's project invitations waiting for an answer",
    response: { 200: MyProjectInvitationList },
  }),
  acceptInvitation: endpoint({
    method: 'POST',
    path: '/projects/invitations/:id/accept',
    operationId: 'acceptProjectInvitation',
    tags,
    params: IdParams,
    response: { 200: ProjectInvitationAnswer },
  }),
  declineInvitation: endpoint({
    method: 'POST',
    path: '/projects/invitations/:id/decline',
    operationId: 'declineProjectInvitation',
    tags,
    params: IdParams,
    response: { 200: ProjectInvitationAnswer },
  }),
  cancelInvitation: endpoint({
    method: 'DELETE',
    path: '/projects/:id/invitations',
    operationId: 'cancelProjectInvitation',
    tags,
    params: IdParams,
    querystring: ProjectInvitationQuery,
    response: { 204: NoContent },
  }),
  images: endpoint({
    method: 'GET',
    path: '/projects/:id/images',
    operationId: 'listProjectImages',
    tags,
    params: IdParams,
    response: { 200: ProjectImageList },
  }),
  addImages: endpoint({
    method: 'POST',
    path: '/projects/:id/images',
    operationId: 'addProjectImages',
    tags,
    params: IdParams,
    body: AddProjectImagesBody,
    response: { 200: ProjectImageList },
  }),
  removeImage: endpoint({
    method: 'DELETE',
    path: '/projects/:id/images/:imageId',
    operationId: 'removeProjectImage',
    tags,
    params: ProjectImageParams,
    response: { 204: NoContent },
  }),
  thumbnail: endpoint({
    method: 'GET',
    path: '/projects/:id/images/:imageId/thumbnail',
    operationId: 'getProjectImageThumbnail',
    tags,
    summary: 'The 256 px rendition of an image of the project, for everyone with access to the project',
    params: ProjectImageParams,
    response: { 200: FileDownload },
    produces: ['image/webp'],
  }),
  share: endpoint({
    method: 'POST',
    path: '/projects/:id/share',
    operationId: 'shareProject',
    tags,
    params: IdParams,
    body: ShareProjectBody,
    response: { 200: StatusOk },
  }),
  fields: endpoint({
    method: 'GET',
    path: '/projects/:id/fields',
    operationId: 'listProjectFields',
    tags,
    summary: 'The fields of the project (its images) with the job that represents each per model, for every member',
    params: IdParams,
    response: { 200: ProjectFieldList },
  }),
  acceptField: endpoint({
    method: 'PUT',
    path: '/projects/:id/fields/:imageId/:modelId',
    operationId: 'acceptProjectField',
    tags,
    summary: 'Accepts a finished job of the project as the field of an image for its model (owner or EDITOR); it stays until another is accepted',
    params: ProjectFieldParams,
    body: AcceptProjectFieldBody,
    response: { 200: ProjectFieldList },
  }),
  releaseField: endpoint({
    method: 'DELETE',
    path: '/projects/:id/fields/:imageId/:modelId',
    operationId: 'releaseProjectField',
    tags,
    summary: 'Releases an accepted field: the newest finished job of the project represents it again (owner or EDITOR)',
    params: ProjectFieldParams,
    response: { 200: ProjectFieldList },
  }),
  display: endpoint({
    method: 'GET',
    path: '/projects/:id/images/:imageId/display',
    operationId: 'getProjectImageDisplay',
    tags,
    summary: 'The display rendition of an image of the project, for everyone with access to the project (job review)',
    params: ProjectImageParams,
    response: { 200: FileDownload },
    produces: ['image/webp'],
  }),
};
