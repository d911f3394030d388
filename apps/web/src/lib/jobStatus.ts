/**
 * The one job-status type and colour map of the web app (ARCHITECTURE.md "Jobs, queue and launchers":
 * NEW → PENDING → FINISHED | FAILED, or CACHED). The type and the values come from the jobs contract.
 */
import { isRunningStatus, JobStatusValues, type JobStatus } from '@lamella/contracts';

export type { JobStatus };

export const JOB_STATUSES: readonly JobStatus[] = JobStatusValues;

/** Mantine colour of each status badge; a cached job is a finished one (same results), so it is green too. */
export const JOB_STATUS_COLOR: Record<JobStatus, string> = {
  NEW: 'gray',
  PENDING: 'blue',
  FINISHED: 'green',
  CACHED: 'green',
  FAILED: 'red',
};

export function isJobStatus(value: unknown): value is JobStatus {
  return typeof value === 'string' && (JOB_STATUSES as readonly string[]).includes(value);
}

/** Colour for any status string (unknown ones are grey). */
export function jobStatusColor(status: string): string {
  return isJobStatus(status) ? JOB_STATUS_COLOR[status] : 'gray';
}

/** Queued or running: the page keeps polling / listening (the contract's rule). */
export function isJobRunning(status: JobStatus): boolean {
  return isRunningStatus(status);
}

/** Has results to show. */
export function isJobFinished(status: JobStatus): boolean {
  return status === 'FINISHED' || status === 'CACHED';
}
