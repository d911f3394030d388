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
/** Who has access (owner first) and the addresses invited that have no account yet. */
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
};
