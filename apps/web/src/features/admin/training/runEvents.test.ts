import { QueryClient } from '@tanstack/react-query';
import type { TrainingRun } from '@lamella/contracts';
import { describe, expect, it } from 'vitest';
import { applyRunEvent, RUNS_KEY, runKey } from './api';

const run = (id: string, patch: Partial<TrainingRun> = {}): TrainingRun => ({
  id,
  modelId: 'm',
  model: { id: 'm', internalName: 'grain-size', displayName: 'Grain size' },
  baseVersion: '20261201',
  candidateVersion: '20261201-ft1',
  status: 'RUNNING',
  imageIds: ['a', 'b'],
  holdoutImageIds: ['b'],
  holdoutShare: 0.2,
  steps: 10,
  seed: 1,
  filter: {},
  imagesChosen: false,
  progress: { step: 1, steps: 10, loss: 0.9, elapsedS: 3, etaS: 27 },
  launcherId: 'l',
  attempt: 1,
  error: null,
  createdBy: null,
  createdAt: '2026-11-26T21:00:00.000Z',
  startedAt: '2026-11-26T21:00:01.000Z',
  finishedAt: null,
  ...patch,
});

describe('training run events', () => {
  it('carry the progress into the cached run and the cached lists; other runs stay as they are', () => {
    const qc = new QueryClient();
    qc.setQueryData(runKey('r1'), run('r1'));
    qc.setQueryData([...RUNS_KEY, {}], [run('r1'), run('r2')]);
    const progress = { step: 6, steps: 10, loss: 0.4, elapsedS: 18, etaS: 12 };
    applyRunEvent(qc, { runId: 'r1', modelId: 'm', status: 'RUNNING', progress, error: null, candidateVersion: '20261201-ft1' });
    expect(qc.getQueryData<TrainingRun>(runKey('r1'))?.progress).toEqual(progress);
    const list = qc.getQueryData<TrainingRun[]>([...RUNS_KEY, {}])!;
    expect(list[0].progress).toEqual(progress);
    expect(list[1].progress?.step).toBe(1);
  });

  it('a failed run takes its error and keeps the last progress', () => {
    const qc = new QueryClient();
    qc.setQueryData(runKey('r1'), run('r1'));
    const error = { code: 'TRAINING_FAILED', message: 'python exited' };
    applyRunEvent(qc, { runId: 'r1', modelId: 'm', status: 'FAILED', progress: null, error, candidateVersion: '20261201-ft1' });
    const r = qc.getQueryData<TrainingRun>(runKey('r1'))!;
    expect(r.status).toBe('FAILED');
    expect(r.error).toEqual(error);
    expect(r.progress?.step).toBe(1);
  });
});
