/** The jobs, images and results shapes of the web app: all of them are the contracts' (packages/contracts). */
import { isRunningStatus, type JobStatus } from '@lamella/contracts';

export type {
  BarChartItem,
  CropBox,
  DataTableItem,
  FeedbackFlag,
  HistogramItem,
  HistogramPoint,
  ImageItem,
  Job,
  JobListRow,
  JobMask as Mask,
  JobSortBy as SortBy,
  JobStatus,
  MessageItem,
  ResultItem,
  SortOrder,
  Image as UploadedImage,
} from '@lamella/contracts';

/** Queued or running: the page keeps polling and listening. */
export const isRunning = (s: JobStatus): boolean => isRunningStatus(s);
