import { Type, type Static } from 'typebox';
import { IdParams, NoContent, StatusOk } from './common.ts';
import { endpoint } from './endpoint.ts';

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
