/**
 * The spec of a launcher's POST /train (its multipart field `spec`, apps/launcher/src/train.ts): what the server's
 * training dispatcher sends (apps/server/src/modules/training-runs/launcher-client.ts) and the launcher checks.
 */
export interface TrainSpec {
  runId: string;
  model: string;
  baseVersion: string;
  candidateVersion: string;
  steps: number;
  seed: number;
  images: Array<{ id: string; holdout: boolean }>;
  /** The base version's network when it is a trained version itself (as a job's `network`); else the shipped one. */
  baseNetwork?: { sha256: string; url: string };
  heartbeatMs?: number;
  /** The server's id of the launcher, for the log lines. */
  launcherId?: string;
}
