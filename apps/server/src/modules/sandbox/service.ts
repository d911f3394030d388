import type { Job, RunSandboxBody } from '@lamella/contracts';
import type { AuthContext } from '../../platform/auth/session.ts';
import { forbidden, validationFailed } from '../../platform/http/errors.ts';
import * as jobs from '../jobs/service.ts';
import * as repo from './repo.ts';
import type { Language } from '@lamella/i18n';

/** The sandbox creates jobs through the jobs module: its database, queue and customization settings. */
export interface SandboxDeps {
  jobs: jobs.JobsDeps;
}

export const SANDBOX_KEEP_HOURS = 24;
const MAX_COMBINATIONS = 200;

/** Values of an identification variable: split on comma and space (accounts.md §9). */
export const splitValues = (vals: string[]) => vals.flatMap((v) => v.split(/[\s,]+/)).filter(Boolean);

/** Every combination of the variables' values, as settings objects (keys may be dotted paths). */
export function combinations(variables: Array<{ key: string; vals: string[] }>): Array<Record<string, unknown>> {
  let out: Array<Record<string, unknown>> = [{}];
  for (const v of variables) {
    const values = splitValues(v.vals).map((x) =>
      x !== '' && !Number.isNaN(Number(x)) ? Number(x) : x === 'true' ? true : x === 'false' ? false : x,
    );
    out = out.flatMap((base) => values.map((value) => setPath({ ...base }, v.key, value)));
  }
  return out;
}

function setPath(obj: Record<string, unknown>, path: string, value: unknown): Record<string, unknown> {
  const parts = path.split('.');
  let node = obj;
  for (const p of parts.slice(0, -1)) {
    node[p] = typeof node[p] === 'object' && node[p] !== null ? { ...(node[p] as object) } : {};
    node = node[p] as Record<string, unknown>;
  }
  node[parts[parts.length - 1]] = value;
  return obj;
}

/**
 * Runs models on one image in the sandbox. Its jobs (source SANDBOX, or IDENTIFICATION with params) are not
 * listed with the user's results, cannot be exported, and are shown for 24 hours. Params and versions are for
 * ADMIN only (the admin sandbox).
 */
export async function run(deps: SandboxDeps, auth: AuthContext, body: RunSandboxBody): Promise<Job[]> {
  const { params, versions } = body;
  const admin = auth.user.role === 'ADMIN';
  if (((params && (params.customizationId || params.variables?.length)) || versions?.length) && !admin) throw forbidden();
  const variables = params?.variables ?? [];
  const missing = variables.findIndex((v) => !v.key.trim());
  if (missing >= 0) throw validationFailed([{ field: `params.variables.${missing}.key`, key: 'errors.variableNameRequired' }]);
  if (versions && versions.length === 0) throw validationFailed([{ field: 'versions', key: 'errors.versionsRequired' }]);
  const variants = variables.length ? combinations(variables) : null;
  if (variants && variants.length > MAX_COMBINATIONS) throw validationFailed([{ field: 'params.variables', key: 'errors.tooManyCombinations' }]);
  const rows = await jobs.createJobs(deps.jobs, auth, {
    imageIds: [body.imageId],
    modelIds: body.modelsIds,
    source: variants || params?.customizationId ? 'IDENTIFICATION' : 'SANDBOX',
    versions: versions ?? null,
    settingsVariants: variants,
    customizationId: params?.customizationId ?? null,
  });
  return jobs.presentJobs(deps.jobs.db, rows);
}

/** The caller's sandbox jobs of the last 24 hours (at most 100), newest first. */
export async function listRecent(deps: SandboxDeps, ownerId: string, lng?: Language): Promise<Job[]> {
  const since = new Date(Date.now() - SANDBOX_KEEP_HOURS * 3600_000);
  return jobs.presentJobs(deps.jobs.db, await repo.listRecentSandboxJobs(deps.jobs.db, ownerId, since, 100), lng);
}
