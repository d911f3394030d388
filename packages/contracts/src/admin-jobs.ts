import { Type, type Static, type TSchema } from 'typebox';
import { FileDownload, IdParams, SPREADSHEET_TYPES, SpreadsheetFormat } from './common.ts';
import { endpoint } from './endpoint.ts';

const Nullable = <T extends TSchema>(s: T) => Type.Union([s, Type.Null()]);

/**
 * Admin jobs (back-office.md §2 "Jobs list" and "Job detail", §7 Jobs). Reading needs JOB.READ (ADMIN always
 * has it); adding or deleting administrator feedback needs JOB.WRITE.
 */

/** Filters, sort and page of the jobs list and of both CSV reports (flat query string). */
export const AdminJobsQuery = Type.Object(
  {
    sortKey: Type.Optional(Type.String({ maxLength: 40 })),
    sortOrder: Type.Optional(Type.Union([Type.Literal('asc'), Type.Literal('desc')])),
    page: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000 })),
    pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })),
    /** Accepted and ignored: every column is in every row. */
    columns: Type.Optional(Type.Array(Type.String({ maxLength: 40 }), { maxItems: 50 })),
    /** YYYY-MM-DD (UTC days, both included). */
    startDate: Type.Optional(Type.String({ maxLength: 40 })),
    endDate: Type.Optional(Type.String({ maxLength: 40 })),
    modelId: Type.Optional(Type.String({ maxLength: 40 })),
    userId: Type.Optional(Type.String({ maxLength: 40 })),
    /** ALL, NOT_DELETED (default) or DELETED. */
    deleted: Type.Optional(Type.String({ maxLength: 20 })),
    company: Type.Optional(Type.String({ maxLength: 400 })),
    withUserFeedback: Type.Optional(Type.String({ maxLength: 10 })),
    withAdminFeedback: Type.Optional(Type.String({ maxLength: 10 })),
    withSubmittedMasks: Type.Optional(Type.String({ maxLength: 10 })),
    /** NEW, PENDING, FINISHED, FAILED or CACHED. */
    status: Type.Optional(Type.String({ maxLength: 20 })),
    /** WEB, API, SANDBOX, IDENTIFICATION or TEST. */
    source: Type.Optional(Type.String({ maxLength: 20 })),
  },
  { $id: 'AdminJobsQuery' },
);
export type AdminJobsQuery = Static<typeof AdminJobsQuery>;

/** The list's filters and the file format of both reports (headers in the reader's language, their CSV style). */
export const AdminJobsReportQuery = Type.Object(
  { ...AdminJobsQuery.properties, format: Type.Optional(SpreadsheetFormat) },
  { $id: 'AdminJobsReportQuery' },
);
export type AdminJobsReportQuery = Static<typeof AdminJobsReportQuery>;

const Owner = Type.Object({
  id: Type.String(),
  name: Nullable(Type.String()),
  surname: Nullable(Type.String()),
  email: Nullable(Type.String()),
  company: Nullable(Type.String()),
});
const rowProperties = {
  id: Type.String(),
  createdAt: Type.String(),
  startedAt: Nullable(Type.String()),
  finishedAt: Nullable(Type.String()),
  status: Type.String(),
  source: Type.String(),
  modelVersion: Type.String(),
  /** `displayNameDe`: the German name staff set (null: none; the web then names a built-in model in German itself). */
  model: Type.Object({
    id: Type.String(),
    name: Nullable(Type.String()),
    displayName: Nullable(Type.String()),
    displayNameDe: Type.Optional(Nullable(Type.String())),
  }),
  owner: Owner,
  company: Nullable(Type.String()),
  project: Nullable(Type.Object({ id: Type.String(), name: Nullable(Type.String()) })),
  image: Type.Object({ id: Type.String(), orginalFilename: Nullable(Type.String()), filename: Nullable(Type.String()) }),
  userRating: Nullable(Type.Number()),
  userFeedback: Nullable(Type.Object({ rating: Type.Number(), comment: Nullable(Type.String()) })),
  /** Mean of the administrator feedback scores (2 decimals) and their number. */
  adminRating: Type.Object({ mean: Nullable(Type.Number()), count: Type.Integer() }),
  durationMs: Nullable(Type.Number()),
  waitMs: Nullable(Type.Number()),
  deleted: Type.Boolean(),
  archived: Type.Boolean(),
  submittedMasks: Type.Integer(),
  masksCount: Type.Integer(),
};

/** A row of the admin jobs table. Durations are milliseconds. */
export const AdminJobRow = Type.Object(rowProperties, { $id: 'AdminJobRow' });
export type AdminJobRow = Static<typeof AdminJobRow>;

/** One page of the jobs list (no total: `hasNextPage`). */
export const AdminJobsPage = Type.Object(
  { data: Type.Array(AdminJobRow), page: Type.Integer(), hasNextPage: Type.Boolean() },
  { $id: 'AdminJobsPage' },
);
export type AdminJobsPage = Static<typeof AdminJobsPage>;

/** How many jobs match the list's filters (paging, sort and columns are ignored). */
export const AdminJobsCount = Type.Object({ total: Type.Integer() }, { $id: 'AdminJobsCount' });
export type AdminJobsCount = Static<typeof AdminJobsCount>;

/** One administrator feedback: four scores 1..5, their mean (`rating`) and an optional comment. */
export const AdminFeedback = Type.Object(
  {
    id: Type.String(),
    jobId: Type.String(),
    scaleNumber: Type.Integer(),
    scaleLength: Type.Integer(),
    resin: Type.Integer(),
    results: Type.Integer(),
    rating: Type.Number(),
    comment: Nullable(Type.String()),
    createdAt: Type.String(),
    userId: Nullable(Type.String()),
    user: Nullable(Type.Object({ name: Nullable(Type.String()), surname: Nullable(Type.String()) })),
  },
  { $id: 'AdminFeedback' },
);
export type AdminFeedback = Static<typeof AdminFeedback>;

const AdminJobMask = Type.Object({
  id: Type.String(),
  label: Type.String(),
  filename: Type.String(),
  isSubmitted: Type.Boolean(),
  parentId: Nullable(Type.String()),
  createdAt: Type.String(),
});

/** The job detail page (back-office §2 "Job detail"). */
/**
 * One run of the job on a launcher (issue 26): RUNNING while there, then FINISHED, FAILED (with the error) or
 * ABANDONED (why: launcher busy, unreachable, not responding, lease lost or expired; the job went back to the queue).
 */
export const AdminJobAttempt = Type.Object(
  {
    attempt: Type.Integer(),
    launcherId: Nullable(Type.String()),
    /** "server :port" as it was when the attempt ran. */
    launcher: Type.String(),
    startedAt: Type.String(),
    endedAt: Nullable(Type.String()),
    outcome: Type.Union([Type.Literal('RUNNING'), Type.Literal('FINISHED'), Type.Literal('FAILED'), Type.Literal('ABANDONED')]),
    reason: Nullable(Type.String()),
  },
  { $id: 'AdminJobAttempt' },
);
export type AdminJobAttempt = Static<typeof AdminJobAttempt>;

export const AdminJobDetail = Type.Object(
  {
    ...rowProperties,
    /** Every attempt, oldest first. */
    attempts: Type.Array(AdminJobAttempt),
    /** The job this one re-runs (a customer's re-run or staff's "Re-run for the customer"), if any. */
    parentJobId: Nullable(Type.String()),
    model: Type.Object({
      id: Type.String(),
      name: Type.String(),
      displayName: Type.String(),
      displayNameDe: Type.Optional(Nullable(Type.String())),
      currentVersion: Type.String(),
    }),
    isOutdated: Type.Boolean(),
    executor: Nullable(
      Type.Object({
        id: Type.String(),
        port: Nullable(Type.Integer()),
        version: Nullable(Type.String()),
        nodeId: Nullable(Type.String()),
        nodeName: Nullable(Type.String()),
        node: Type.Object({ name: Nullable(Type.String()) }),
      }),
    ),
    computeOn: Nullable(Type.String()),
    launcherId: Nullable(Type.String()),
    startDelaySeconds: Nullable(Type.Number()),
    durationSeconds: Nullable(Type.Number()),
    /** The last sign of life of the launcher running the job (start, progress, heartbeat). */
    heartbeatAt: Nullable(Type.String()),
    image: Type.Object({
      id: Type.String(),
      orginalFilename: Type.String(),
      filename: Type.String(),
      width: Nullable(Type.Integer()),
      height: Nullable(Type.Integer()),
      format: Nullable(Type.String()),
      size: Nullable(Type.Number()),
      meta: Type.Object({ width: Nullable(Type.Integer()), height: Nullable(Type.Integer()), format: Nullable(Type.String()) }),
      allowedTrainingUse: Type.Boolean(),
      isDeleted: Type.Boolean(),
    }),
    /** Only for FAILED jobs. */
    error: Nullable(Type.String()),
    settings: Nullable(Type.Record(Type.String(), Type.Unknown())),
    customizationId: Nullable(Type.String()),
    crop: Nullable(Type.Object({ x: Type.Number(), y: Type.Number(), width: Type.Number(), height: Type.Number() })),
    result: Nullable(Type.Object({ id: Type.String(), items: Type.Unknown(), measurements: Type.Unknown(), files: Type.Array(Type.String()) })),
    masks: Type.Array(AdminJobMask),
    editedMasks: Type.Array(AdminJobMask),
    userFeedback: Nullable(Type.Object({ rating: Type.Number(), comment: Nullable(Type.String()), createdAt: Type.String() })),
    adminFeedback: Type.Array(AdminFeedback),
    project: Nullable(Type.Object({ id: Type.String(), name: Type.String() })),
  },
  { $id: 'AdminJobDetail' },
);
export type AdminJobDetail = Static<typeof AdminJobDetail>;

export const AdminJobFeedbackParams = Type.Object({ jobId: Type.String({ format: 'uuid' }) }, { $id: 'AdminJobFeedbackParams' });
const Score = Type.Optional(Type.Union([Type.Number({ description: 'A whole number 1..5' }), Type.Null()]));
/** The four scores are required whole numbers 1..5 (checked by the server, naming each field). */
export const AdminFeedbackBody = Type.Object(
  {
    scaleNumber: Score,
    scaleLength: Score,
    resin: Score,
    results: Score,
    comment: Type.Optional(Type.Union([Type.String({ description: 'At most 5000 characters' }), Type.Null()])),
  },
  { additionalProperties: false, $id: 'AdminFeedbackBody' },
);
export type AdminFeedbackBody = Static<typeof AdminFeedbackBody>;
export const AdminFeedbackAdded = Type.Object({ ...AdminFeedback.properties, message: Type.String() }, { $id: 'AdminFeedbackAdded' });
export type AdminFeedbackAdded = Static<typeof AdminFeedbackAdded>;
/** "Re-run for the customer": the new job (same image, model, settings, crop and mask; no licence unit). */
export const AdminJobRerun = Type.Object({ id: Type.String(), parentJobId: Type.String(), message: Type.String() }, { $id: 'AdminJobRerun' });
export type AdminJobRerun = Static<typeof AdminJobRerun>;

/** "Next job" of the rating queue: the next older finished job without an administrator rating (null: none left). */
export const AdminNextJobQuery = Type.Object(
  { after: Type.Optional(Type.String({ format: 'uuid', description: 'The job shown now; the queue goes on from it (older first)' })) },
  { $id: 'AdminNextJobQuery' },
);
export const AdminNextJob = Type.Object({ id: Nullable(Type.String()) }, { $id: 'AdminNextJob' });
export type AdminNextJob = Static<typeof AdminNextJob>;

export const AdminFeedbackDeleted = Type.Object(
  { id: Type.String(), deleted: Type.Literal(true), message: Type.String() },
  { $id: 'AdminFeedbackDeleted' },
);
export type AdminFeedbackDeleted = Static<typeof AdminFeedbackDeleted>;

const tags = ['admin-jobs'] as const;
export const adminJobsApi = {
  list: endpoint({
    method: 'GET',
    path: '/admin/jobs',
    operationId: 'listAdminJobs',
    tags,
    querystring: AdminJobsQuery,
    response: { 200: AdminJobsPage },
  }),
  /** "N jobs match": the number of jobs the list's filters select (the list itself answers no total). */
  count: endpoint({
    method: 'GET',
    path: '/admin/jobs/count',
    operationId: 'countAdminJobs',
    tags,
    querystring: AdminJobsQuery,
    response: { 200: AdminJobsCount },
  }),
  report: endpoint({
    method: 'GET',
    path: '/admin/jobs/report',
    operationId: 'downloadAdminJobsReport',
    tags,
    querystring: AdminJobsReportQuery,
    produces: SPREADSHEET_TYPES,
    response: { 200: FileDownload },
  }),
  masksReport: endpoint({
    method: 'GET',
    path: '/admin/jobs/masks-report',
    operationId: 'downloadAdminMasksReport',
    tags,
    querystring: AdminJobsReportQuery,
    produces: SPREADSHEET_TYPES,
    response: { 200: FileDownload },
  }),
  nextToRate: endpoint({
    method: 'GET',
    path: '/admin/jobs/next-to-rate',
    operationId: 'nextAdminJobToRate',
    tags,
    summary: 'The next finished job without an administrator rating (rating queue)',
    querystring: AdminNextJobQuery,
    response: { 200: AdminNextJob },
  }),
  get: endpoint({ method: 'GET', path: '/admin/jobs/:id', operationId: 'getAdminJob', tags, params: IdParams, response: { 200: AdminJobDetail } }),
  rerun: endpoint({
    method: 'POST',
    path: '/admin/jobs/:id/rerun',
    operationId: 'rerunAdminJob',
    tags,
    summary: 'Re-run for the customer: a new job of the owner, no licence unit, audited (JOB.WRITE)',
    params: IdParams,
    response: { 200: AdminJobRerun },
  }),
  addFeedback: endpoint({
    method: 'POST',
    path: '/admin/jobs/:jobId/feedback',
    operationId: 'addAdminJobFeedback',
    tags,
    params: AdminJobFeedbackParams,
    body: AdminFeedbackBody,
    response: { 200: AdminFeedbackAdded },
  }),
  removeFeedback: endpoint({
    method: 'DELETE',
    path: '/admin/feedback/admin/:id',
    operationId: 'deleteAdminJobFeedback',
    tags,
    params: IdParams,
    response: { 200: AdminFeedbackDeleted },
  }),
};
