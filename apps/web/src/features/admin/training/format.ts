/** Figures of the training screens: durations, the loss, metrics and which side of a comparison is better. */
import type { TrainingMetrics, TrainingProgress } from '@lamella/contracts';
import { NO_VALUE } from '../../../lib/format';

/** Seconds as `h:mm:ss` or `m:ss`; '—' when unknown. */
export function duration(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined || !Number.isFinite(seconds) || seconds < 0) return NO_VALUE;
  const s = Math.round(seconds);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const r = String(s % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${r}` : `${m}:${r}`;
}

/** Percent done (0–100) of a run's progress. */
export function percentDone(p: TrainingProgress | null | undefined): number {
  if (!p || p.steps <= 0) return 0;
  return Math.max(0, Math.min(100, (p.step / p.steps) * 100));
}

export const formatLoss = (loss: number | null | undefined) =>
  loss === null || loss === undefined || !Number.isFinite(loss) ? NO_VALUE : loss.toFixed(4);
export const formatF = (f: number) => (Number.isFinite(f) ? f.toFixed(3) : NO_VALUE);
export const formatDeltaG = (g: number) => (Number.isFinite(g) ? g.toFixed(2) : NO_VALUE);

export type Metric = keyof TrainingMetrics;
export const METRICS: Metric[] = ['fScore', 'deltaG'];

export type Verdict = 'better' | 'worse' | 'same';

/** The candidate against the base on one metric: a higher F-score is better, a smaller |ΔG| is better. */
export function verdict(metric: Metric, base: TrainingMetrics, candidate: TrainingMetrics): Verdict {
  const eps = metric === 'fScore' ? 0.0005 : 0.005;
  const d = candidate[metric] - base[metric];
  if (Math.abs(d) < eps || !Number.isFinite(d)) return 'same';
  const better = metric === 'fScore' ? d > 0 : d < 0;
  return better ? 'better' : 'worse';
}

export const VERDICT_COLOR: Record<Verdict, string> = { better: 'teal', worse: 'red', same: 'gray' };
