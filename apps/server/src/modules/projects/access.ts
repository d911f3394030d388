import type { Db } from '../../platform/db/client.ts';
import { notFound } from '../../platform/http/errors.ts';
import * as repo from './repo.ts';

/**
 * Whether a user may read a job of a project (issue 24: review in a shared project): the job was started in the
 * project, the user is its owner or a member (EDITOR, VIEWER), and the project still holds the job's image. The jobs
 * module asks this for jobs that are not the caller's own; it imports only the projects repo, so that the jobs and
 * projects services do not import each other (projects/service.ts reads the jobs of its images).
 */
export async function canReadProjectJob(db: Db, userId: string, job: { projectId: string | null; imageId: string }): Promise<boolean> {
  if (!job.projectId) return false;
  if (!(await repo.findVisible(db, userId, job.projectId))) return false;
  return repo.holdsImage(db, job.projectId, job.imageId);
}

/** A project the user may see (owner or member), else 404 `project` — for modules that only name a project (recipes). */
export async function assertProjectVisible(db: Db, userId: string, projectId: string): Promise<void> {
  if (!(await repo.findVisible(db, userId, projectId))) throw notFound('project');
}
