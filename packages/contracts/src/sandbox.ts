import { Type, type Static } from 'typebox';
import { endpoint } from './endpoint.ts';
import { JobList } from './jobs.ts';

const Uuid = Type.String({ format: 'uuid' });

/** One identification variable: a (dotted) settings key and its values, split on comma and space. */
export const SandboxVariable = Type.Object(
  { key: Type.String({ maxLength: 200 }), vals: Type.Array(Type.String({ maxLength: 1000 }), { maxItems: 50 }) },
  { $id: 'SandboxVariable' },
);
export type SandboxVariable = Static<typeof SandboxVariable>;

/** Admin sandbox: a customization group to run with, and/or variables whose combinations each run as a job. */
export const SandboxParams = Type.Object(
  {
    customizationId: Type.Optional(Type.Union([Uuid, Type.Null()])),
    variables: Type.Optional(Type.Array(SandboxVariable, { maxItems: 10 })),
  },
  { $id: 'SandboxParams' },
);
export type SandboxParams = Static<typeof SandboxParams>;

/** The most model versions one sandbox run compares (each version of each model is a job). */
export const SANDBOX_MAX_VERSIONS = 10;

/** POST /sandbox (user-app.md §4 sandbox; `params` and `versions` are for ADMIN only). */
export const RunSandboxBody = Type.Object(
  {
    imageId: Uuid,
    modelsIds: Type.Array(Uuid, { minItems: 1, maxItems: 20 }),
    params: Type.Optional(Type.Union([Type.Null(), SandboxParams])),
    versions: Type.Optional(Type.Union([Type.Null(), Type.Array(Type.String({ maxLength: 50 }), { maxItems: SANDBOX_MAX_VERSIONS })])),
    source: Type.Optional(Type.String({ maxLength: 50 })),
  },
  { additionalProperties: false, $id: 'RunSandboxBody' },
);
export type RunSandboxBody = Static<typeof RunSandboxBody>;

const tags = ['sandbox'] as const;
export const sandboxApi = {
  run: endpoint({ method: 'POST', path: '/sandbox', operationId: 'runSandbox', tags, body: RunSandboxBody, response: { 200: JobList } }),
  list: endpoint({ method: 'GET', path: '/sandbox', operationId: 'listSandboxJobs', tags, response: { 200: JobList } }),
};
