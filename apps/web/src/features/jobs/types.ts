/** Wire shapes of the jobs, images and results calls (user-app.md §3; server modules jobs/images/sandbox). */

export type JobStatus = 'NEW' | 'PENDING' | 'FINISHED' | 'FAILED' | 'CACHED';

export interface BarChartItem {
  type: 'bar-chart';
  data: Record<string, string | number>[];
  keys: string[];
  xLabel?: string;
  yLabels?: string[] | string;
  title?: string;
}
export interface DataTableItem {
  type: 'data-table';
  title?: string;
  rows: { label: string; labelTooltip?: string | null; value: number | string | null; unit?: string | null }[];
}
export interface HistogramPoint {
  x: number | [number, number];
  y: number;
  color?: string;
}
export interface HistogramItem {
  type: 'histogram';
  label?: string;
  xLabel?: string;
  yLabel?: string;
  unit?: string;
  data: HistogramPoint[];
}
export interface ImageItem {
  type: 'image';
  filename: string;
  title?: string;
}
export interface MessageItem {
  type: 'message';
  title: string;
  content: string;
  status: 'info' | 'warning' | 'error';
}
export type ResultItem = BarChartItem | DataTableItem | HistogramItem | ImageItem | MessageItem;

export interface FeedbackFlag {
  name: string;
  value: boolean;
  score: number;
}

export interface Mask {
  id: string;
  label: string;
  filename: string;
  parentId: string | null;
  isSubmitted: boolean;
}

export interface CropBox {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface Job {
  id: string;
  status: JobStatus;
  source: string;
  imageId: string;
  image: { id: string; orginalFilename: string; width: number; height: number };
  modelId: string;
  model: { id: string; name: string; displayName: string };
  modelVersion: string;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  progress: number | null;
  resultId: string | null;
  result: { id: string; results: ResultItem[]; feedback: FeedbackFlag[]; measurements: Record<string, unknown> } | null;
  userFeedback: { rating: number; comment: string | null } | null;
  masks: Mask[];
  withMasks: boolean;
  crop: CropBox | null;
  outdated: boolean;
  archived: boolean;
  customization: { config: unknown; template: { nameEn: string; nameDe: string } | null } | null;
}

export interface UploadedImage {
  id: string;
  orginalFilename: string;
  width: number;
  height: number;
  format: string;
  size: number;
  validated: boolean;
  createdAt: string;
}

export type SortBy = 'createdAt' | 'finishedAt' | 'status';
export type SortOrder = 'asc' | 'desc';

export const isRunning = (s: JobStatus) => s === 'NEW' || s === 'PENDING';
export const isDone = (s: JobStatus) => s === 'FINISHED' || s === 'CACHED';
