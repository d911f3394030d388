/**
 * Training runs, trainable images and trained versions (issue 25), typed from packages/contracts/src/training.ts.
 * A run's progress arrives on the socket (`training-run`) and, as a fallback, by polling while a run is active.
 */
import { keepPreviousData, useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import {
  computeModelsApi,
  TRAINING_RUN_EVENT,
  trainingApi,
  type StartTrainingRunBody,
  type TrainableImagesQuery,
  type TrainingRun,
  type TrainingRunProgress,
  type TrainingRunsQuery,
} from '@lamella/contracts';
import { call } from '../../../api/client';
import { acquireSocket, releaseSocket } from '../../jobs/api';
import { MODELS_KEY } from '../models/api';

export { trainingApi };

export const RUNS_KEY = ['admin', 'training-runs'] as const;
export const runKey = (id: string) => ['admin', 'training-run', id] as const;
export const versionsKey = (modelId: string) => ['admin', 'trained-versions', modelId] as const;
export const modelVersionsKey = (modelId: string) => ['admin', 'model-versions', modelId] as const;

/** Polling fallback while a run is queued or running (the socket normally brings every change first). */
export const RUN_POLL_MS = 5000;

export const isActive = (status: TrainingRun['status']) => status === 'QUEUED' || status === 'RUNNING';

export function useTrainingRuns(query: TrainingRunsQuery = {}) {
  return useQuery({
    queryKey: [...RUNS_KEY, query],
    queryFn: () => call(trainingApi.list, { query }),
    refetchInterval: (q) => (q.state.data?.some((r) => isActive(r.status)) ? RUN_POLL_MS : false),
  });
}

export function useTrainingRun(id: string) {
  return useQuery({
    queryKey: runKey(id),
    queryFn: () => call(trainingApi.get, { params: { id } }),
    refetchInterval: (q) => (q.state.data && isActive(q.state.data.status) ? RUN_POLL_MS : false),
  });
}

/** The trainable images of a model that the filters select: one page and the total. */
export function useTrainableImages(modelId: string, query: TrainableImagesQuery, enabled = true) {
  return useQuery({
    queryKey: ['admin', 'trainable-images', modelId, query],
    queryFn: () => call(trainingApi.trainableImages, { params: { id: modelId }, query }),
    enabled,
    placeholderData: keepPreviousData,
  });
}

export function useTrainedVersions(modelId: string, enabled = true) {
  return useQuery({ queryKey: versionsKey(modelId), queryFn: () => call(trainingApi.versions, { params: { id: modelId } }), enabled });
}

/** Every version of the model (built-in and trained), for the base version choice. */
export function useModelVersions(modelId: string) {
  return useQuery({ queryKey: modelVersionsKey(modelId), queryFn: () => call(computeModelsApi.versions, { params: { id: modelId } }) });
}

export function useStartRun() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: StartTrainingRunBody) => call(trainingApi.start, { body }),
    onSuccess: () => qc.invalidateQueries({ queryKey: RUNS_KEY }),
  });
}

export function useCancelRun() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => call(trainingApi.cancel, { params: { id } }),
    onSuccess: async (run) => {
      qc.setQueryData(runKey(run.id), run);
      await qc.invalidateQueries({ queryKey: RUNS_KEY });
    },
  });
}

/** Promote a candidate or roll back: the models list and the versions change. */
export function useVersionChange(modelId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (change: { kind: 'promote'; version: string } | { kind: 'rollback' }) =>
      change.kind === 'promote'
        ? call(trainingApi.promote, { params: { id: modelId, version: change.version } })
        : call(trainingApi.rollback, { params: { id: modelId } }),
    onSuccess: async () => {
      await Promise.all([
        qc.invalidateQueries({ queryKey: versionsKey(modelId) }),
        qc.invalidateQueries({ queryKey: modelVersionsKey(modelId) }),
        qc.invalidateQueries({ queryKey: MODELS_KEY }),
      ]);
    },
  });
}

/** A pushed change: the run's cached copies take its status and progress; a run that ended refreshes the lists. */
export function applyRunEvent(qc: QueryClient, e: TrainingRunProgress): void {
  const patch = (r: TrainingRun): TrainingRun =>
    r.id === e.runId ? { ...r, status: e.status, progress: e.progress ?? r.progress, error: e.error } : r;
  qc.setQueryData<TrainingRun>(runKey(e.runId), (r) => (r ? patch(r) : r));
  qc.setQueriesData<TrainingRun[]>({ queryKey: RUNS_KEY }, (list) => list?.map(patch));
  if (!isActive(e.status)) {
    void qc.invalidateQueries({ queryKey: runKey(e.runId) });
    void qc.invalidateQueries({ queryKey: RUNS_KEY });
    void qc.invalidateQueries({ queryKey: versionsKey(e.modelId) });
  }
}

/** Listens to the socket's `training-run` event while mounted. */
export function useTrainingRunEvents() {
  const qc = useQueryClient();
  useEffect(() => {
    const s = acquireSocket();
    const onRun = (e: TrainingRunProgress) => applyRunEvent(qc, e);
    s.on(TRAINING_RUN_EVENT, onRun);
    return () => {
      s.off(TRAINING_RUN_EVENT, onRun);
      releaseSocket();
    };
  }, [qc]);
}
