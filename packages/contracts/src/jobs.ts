import { Type, type Static } from 'typebox';
import { FileDownload, IdParams } from './common.ts';
import { endpoint } from './endpoint.ts';

/** The user's jobs and their results (user-app.md §3 "Job", §7 results page; ARCHITECTURE.md "Jobs"). */

const Uuid = Type.String({ format: 'uuid' });

export const JobStatusValues = ['NEW', 'PENDING', 'FINISHED', 'FAILED', 'CACHED'] as const;
export const JobStatus = Type.Union(
  [Type.Literal('NEW'), Type.Literal('PENDING'), Type.Literal('FINISHED'), Type.Literal('FAILED'), Type.Literal('CACHED')],
  { $id: 'JobStatus' },
);
export type JobStatus = (typeof JobStatusValues)[number];
export const JobSourceValues = ['WEB', 'API', 'SANDBOX', 'IDENTIFICATION', 'TEST'] as const;
export const JobSource = Type.Union(
  [Type.Literal('WEB'), Type.Literal('API'), Type.Literal('SANDBOX'), Type.Literal('IDENTIFICATION'), Type.Literal('TEST')],
  { $id: 'JobSource' },
);
export type JobSource = (typeof JobSourceValues)[number];

/** A crop box in natural pixels of the image. */
export const CropBox = Type.Object(
  { x: Type.Number({ minimum: 0 }), y: Type.Number({ minimum: 0 }), width: Type.Number({ minimum: 1 }), height: Type.Number({ minimum: 1 }) },
  { additionalProperties: false, $id: 'CropBox' },
);
export type CropBox = Static<typeof CropBox>;

// Result items (user-app.md §3 "Result"): what the models write, rendered by the results page.
export const BarChartItem = Type.Object(
  {
    type: Type.Literal('bar-chart'),
    data: Type.Array(Type.Record(Type.String(), Type.Union([Type.String(), Type.Number()]))),
    keys: Type.Array(Type.String()),
    xLabel: Type.Optional(Type.String()),
    yLabels: Type.Optional(Type.Union([Type.Array(Type.String()), Type.String()])),
    title: Type.Optional(Type.String()),
  },
  { $id: 'BarChartItem' },
);
export type BarChartItem = Static<typeof BarChartItem>;
export const DataTableRow = Type.Object(
  {
    label: Type.String(),
    labelTooltip: Type.Optional(Type.Union([Type.String(), Type.Null()])),
    value: Type.Union([Type.Number(), Type.String(), Type.Null()]),
    unit: Type.Optional(Type.Union([Type.String(), Type.Null()])),
    /** How the web shows the number (added when read, from the row's label): counts as integers, G to 2 decimals, pixel size to 4 significant digits. */
    kind: Type.Optional(Type.Union([Type.Literal('count'), Type.Literal('g'), Type.Literal('pixelSize'), Type.Literal('number')])),
  },
  { $id: 'DataTableRow' },
);
export const DataTableItem = Type.Object(
  { type: Type.Literal('data-table'), title: Type.Optional(Type.String()), rows: Type.Array(DataTableRow) },
  { $id: 'DataTableItem' },
);
export type DataTableItem = Static<typeof DataTableItem>;
export const HistogramPoint = Type.Object(
  { x: Type.Union([Type.Number(), Type.Tuple([Type.Number(), Type.Number()])]), y: Type.Number(), color: Type.Optional(Type.String()) },
  { $id: 'HistogramPoint' },
);
export type HistogramPoint = Static<typeof HistogramPoint>;
export const HistogramItem = Type.Object(
  {
    type: Type.Literal('histogram'),
    label: Type.Optional(Type.String()),
    xLabel: Type.Optional(Type.String()),
    yLabel: Type.Optional(Type.String()),
    unit: Type.Optional(Type.String()),
    data: Type.Array(HistogramPoint),
  },
  { $id: 'HistogramItem' },
);
export type HistogramItem = Static<typeof HistogramItem>;
export const ImageItem = Type.Object(
  { type: Type.Literal('image'), filename: Type.String(), title: Type.Optional(Type.String()) },
  { $id: 'ImageItem' },
);
export type ImageItem = Static<typeof ImageItem>;
export const MessageItem = Type.Object(
  {
    type: Type.Literal('message'),
    title: Type.String(),
    content: Type.String(),
    status: Type.Union([Type.Literal('info'), Type.Literal('warning'), Type.Literal('error')]),
    /** Stable code of a message the app acts on (CALIBRATION_MISSING: offer to set the calibration). */
    code: Type.Optional(Type.String()),
  },
  { $id: 'MessageItem' },
);
export type MessageItem = Static<typeof MessageItem>;
export const ResultItem = Type.Union([BarChartItem, DataTableItem, HistogramItem, ImageItem, MessageItem], { $id: 'ResultItem' });
export type ResultItem = Static<typeof ResultItem>;

export const FeedbackFlag = Type.Object({ name: Type.String(), value: Type.Boolean(), score: Type.Number() }, { $id: 'FeedbackFlag' });
export type FeedbackFlag = Static<typeof FeedbackFlag>;
export const Measurements = Type.Record(Type.String(), Type.Unknown(), { $id: 'Measurements' });
export type Measurements = Static<typeof Measurements>;

export const JobResultSummary = Type.Object(
  { id: Type.String(), results: Type.Array(ResultItem), feedback: Type.Array(FeedbackFlag), measurements: Measurements },
  { $id: 'JobResultSummary' },
);
export type JobResultSummary = Static<typeof JobResultSummary>;
/** GET /jobs/results/{id}: the summary and the names of the result's files. */
export const JobResult = Type.Object({ ...JobResultSummary.properties, files: Type.Array(Type.String()) }, { $id: 'JobResult' });
export type JobResult = Static<typeof JobResult>;

export const JobMask = Type.Object(
  {
    id: Type.String(),
    label: Type.String(),
    filename: Type.String(),
    parentId: Type.Union([Type.String(), Type.Null()]),
    isSubmitted: Type.Boolean(),
  },
  { $id: 'JobMask' },
);
export type JobMask = Static<typeof JobMask>;

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(s: T) => Type.Union([s, Type.Null()]);

export const Job = Type.Object(
  {
    id: Type.String(),
    status: JobStatus,
    source: JobSource,
    imageId: Type.String(),
    image: Type.Object({ id: Type.String(), orginalFilename: Type.String(), width: Type.Number(), height: Type.Number() }),
    modelId: Type.String(),
    /** `displayName` is in the reader's language (jobs/localise.ts); `displayNameDe` the German name staff set. */
    model: Type.Object({
      id: Type.String(),
      name: Type.String(),
      displayName: Type.String(),
      displayNameDe: Type.Optional(Type.Union([Type.String(), Type.Null()])),
    }),
    modelVersion: Type.String(),
    createdAt: Type.String(),
    startedAt: Nullable(Type.String()),
    finishedAt: Nullable(Type.String()),
    progress: Nullable(Type.Number()),
    resultId: Nullable(Type.String()),
    result: Nullable(JobResultSummary),
    userFeedback: Nullable(Type.Object({ rating: Type.Integer(), comment: Nullable(Type.String()) })),
    masks: Type.Array(JobMask),
    withMasks: Type.Boolean(),
    crop: Nullable(CropBox),
    outdated: Type.Boolean(),
    archived: Type.Boolean(),
    /** The settings the job ran with and the customization group they came from (null: the model's defaults). */
    customization: Nullable(
      Type.Object({
        config: Type.Record(Type.String(), Type.Unknown()),
        template: Nullable(Type.Object({ nameEn: Type.String(), nameDe: Type.String() })),
      }),
    ),
    failed: Type.Boolean(),
    /**
     * Why the model refused this image (a failed job whose input cannot be measured: blank, too small, too few
     * grains, no layer, unreadable file…), in the language the job ran in; null otherwise (other failures stay
     * for staff, behind the error details).
     */
    failureReason: Nullable(Type.Object({ code: Type.String(), message: Type.String() })),
  },
  { $id: 'Job' },
);
export type Job = Static<typeof Job>;
export const JobList = Type.Array(Job, { $id: 'JobList' });
export type JobList = Static<typeof JobList>;

/**
 * A result as a job list row carries it: its id, feedback flags and the measurements that are numbers,
 * texts or flags (the row's key value comes from them), without its items (tables, histograms, charts, images,
 * messages) or measurements that are lists or objects: those come with the job by id (GET /jobs/{id}) or the result
 * by id (GET /jobs/results/{resultId}).
 */
export const JobResultBrief = Type.Object(
  { id: Type.String(), feedback: Type.Array(FeedbackFlag), measurements: Measurements },
  { $id: 'JobResultBrief' },
);
export type JobResultBrief = Static<typeof JobResultBrief>;
/** A row of GET /jobs: the job as GET /jobs/{id} answers it, with its result as a brief (JobResultBrief). */
export const JobListRow = Type.Object({ ...Job.properties, result: Nullable(JobResultBrief) }, { $id: 'JobListRow' });
export type JobListRow = Static<typeof JobListRow>;
/** GET /jobs: one page of rows (JobListRow). */
export const JobListPage = Type.Array(JobListRow, { $id: 'JobListPage' });
export type JobListPage = Static<typeof JobListPage>;

export const JobSortBy = Type.Union([Type.Literal('createdAt'), Type.Literal('finishedAt'), Type.Literal('status')], { $id: 'JobSortBy' });
export type JobSortBy = Static<typeof JobSortBy>;
export const SortOrder = Type.Union([Type.Literal('asc'), Type.Literal('desc')], { $id: 'SortOrder' });
export type SortOrder = Static<typeof SortOrder>;

/** GET /jobs: one page; the total is in `x-total-count`, the page size in `x-page-size`. */
export const ListJobsQuery = Type.Object(
  {
    archived: Type.Optional(Type.Boolean({ default: false })),
    modelId: Type.Optional(Uuid),
    page: Type.Optional(Type.Integer({ minimum: 1, default: 1 })),
    pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 10 })),
    sortBy: Type.Optional(Type.Union([Type.Literal('createdAt'), Type.Literal('finishedAt'), Type.Literal('status')], { default: 'createdAt' })),
    sortOrder: Type.Optional(Type.Union([Type.Literal('asc'), Type.Literal('desc')], { default: 'desc' })),
    /** History filters: one status; created on or after `from`, on or before `to` (days, UTC); image name contains `name`. */
    status: Type.Optional(JobStatus),
    from: Type.Optional(Type.String({ format: 'date' })),
    to: Type.Optional(Type.String({ format: 'date' })),
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  },
  { $id: 'ListJobsQuery' },
);
export type ListJobsQuery = Static<typeof ListJobsQuery>;

export const CreateJobsBody = Type.Object(
  {
    imageIds: Type.Array(Uuid, { minItems: 1, maxItems: 100 }),
    modelIds: Type.Array(Uuid, { minItems: 1, maxItems: 20 }),
    projectId: Type.Optional(Type.Union([Uuid, Type.Null()])),
    /** A recipe (issue 22): its classifier segments the images and each model measures the class it names. */
    recipeId: Type.Optional(Type.Union([Uuid, Type.Null()])),
    /** The recipe's version (default: its current one); the result names it. */
    recipeVersion: Type.Optional(Type.Union([Type.Integer({ minimum: 1 }), Type.Null()])),
  },
  { additionalProperties: false, $id: 'CreateJobsBody' },
);
export type CreateJobsBody = Static<typeof CreateJobsBody>;

/** `withCrop`: a crop box (clamped to the image); `withUserMasks`: the job's latest saved mask; not both. */
export const RerunJobsBody = Type.Object(
  {
    jobsIds: Type.Array(Uuid, { minItems: 1, maxItems: 100 }),
    withCrop: Type.Optional(Type.Union([CropBox, Type.Boolean(), Type.Null()])),
    withUserMasks: Type.Optional(Type.Boolean()),
    modelId: Type.Optional(Uuid),
  },
  { additionalProperties: false, $id: 'RerunJobsBody' },
);
export type RerunJobsBody = Static<typeof RerunJobsBody>;

export const JobIdsBody = Type.Object(
  { jobsIds: Type.Array(Uuid, { minItems: 1, maxItems: 500 }) },
  { additionalProperties: false, $id: 'JobIdsBody' },
);
export type JobIdsBody = Static<typeof JobIdsBody>;
export const JobsArchived = Type.Object({ archived: Type.Integer() }, { $id: 'JobsArchived' });
export type JobsArchived = Static<typeof JobsArchived>;
export const JobsDeleted = Type.Object({ deleted: Type.Integer() }, { $id: 'JobsDeleted' });
export type JobsDeleted = Static<typeof JobsDeleted>;

/** `format`: csv (default) or xlsx (the same columns, numbers as numbers, units in the headers). */
export const ExportJobsQuery = Type.Object(
  {
    jobsIds: Type.Array(Uuid, { minItems: 1, maxItems: 1000 }),
    format: Type.Optional(Type.Union([Type.Literal('csv'), Type.Literal('xlsx')], { default: 'csv' })),
  },
  { $id: 'ExportJobsQuery' },
);
export type ExportJobsQuery = Static<typeof ExportJobsQuery>;

export const JobError = Type.Object({ error: Type.Union([Type.String(), Type.Null()]) }, { $id: 'JobError' });
export type JobError = Static<typeof JobError>;

export const ResultParams = Type.Object({ resultId: Uuid }, { $id: 'ResultParams' });
export type ResultParams = Static<typeof ResultParams>;
/** A result file by its name (as listed in `JobResult.files`). */
export const ResultFileParams = Type.Object(
  { resultId: Uuid, filename: Type.String({ minLength: 1, maxLength: 200, pattern: '^[\\w.-]+$' }) },
  { $id: 'ResultFileParams' },
);
export type ResultFileParams = Static<typeof ResultFileParams>;

export const isRunningStatus = (s: JobStatus) => s === 'NEW' || s === 'PENDING';

const tags = ['jobs'] as const;
export const jobsApi = {
  list: endpoint({ method: 'GET', path: '/jobs', operationId: 'listJobs', tags, querystring: ListJobsQuery, response: { 200: JobListPage } }),
  create: endpoint({ method: 'POST', path: '/jobs', operationId: 'createJobs', tags, body: CreateJobsBody, response: { 200: JobList } }),
  rerun: endpoint({ method: 'POST', path: '/jobs/rerun', operationId: 'rerunJobs', tags, body: RerunJobsBody, response: { 200: JobList } }),
  archive: endpoint({ method: 'POST', path: '/jobs/archive', operationId: 'archiveJobs', tags, body: JobIdsBody, response: { 200: JobsArchived } }),
  unarchive: endpoint({
    method: 'POST',
    path: '/jobs/unarchive',
    operationId: 'unarchiveJobs',
    tags,
    body: JobIdsBody,
    response: { 200: JobsArchived },
  }),
  remove: endpoint({ method: 'POST', path: '/jobs/delete', operationId: 'deleteJobs', tags, body: JobIdsBody, response: { 200: JobsDeleted } }),
  /** CSV (or `format=xlsx`) of the measurements of the given jobs: readable headers with units in the user's language, the user's decimal separator (`;` with the comma). */
  export: endpoint({
    method: 'GET',
    path: '/jobs/export',
    operationId: 'exportJobs',
    tags,
    querystring: ExportJobsQuery,
    response: { 200: FileDownload },
    produces: ['text/csv', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'],
  }),
  get: endpoint({ method: 'GET', path: '/jobs/:id', operationId: 'getJob', tags, params: IdParams, response: { 200: Job } }),
  error: endpoint({ method: 'GET', path: '/jobs/:id/error', operationId: 'getJobError', tags, params: IdParams, response: { 200: JobError } }),
  result: endpoint({
    method: 'GET',
    path: '/jobs/results/:resultId',
    operationId: 'getJobResult',
    tags,
    params: ResultParams,
    response: { 200: JobResult },
  }),
  resultFile: endpoint({
    method: 'GET',
    path: '/jobs/results/:resultId/:filename',
    operationId: 'getJobResultFile',
    tags,
    params: ResultFileParams,
    response: { 200: FileDownload },
    produces: ['image/png', 'application/json', 'text/csv', 'application/octet-stream'],
  }),
};
