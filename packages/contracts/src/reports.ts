import { Type, type Static } from 'typebox';
import { FileDownload, IdParams } from './common.ts';
import { endpoint } from './endpoint.ts';

/**
 * Reports a lab hands on (issue 14): the report of one job and the specimen report of a project (its images as
 * fields, with ASTM E112 / E562 field statistics), as PDF or Excel, in the caller's language.
 */

export const ReportFormatValues = ['pdf', 'xlsx'] as const;
export type ReportFormat = (typeof ReportFormatValues)[number];
export const REPORT_CONTENT_TYPES: Record<ReportFormat, string> = {
  pdf: 'application/pdf',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
};

/** `?format=pdf|xlsx`; anything else answers 400 naming the field `format`. */
export const ReportQuery = Type.Object(
  { format: Type.Optional(Type.String({ description: '`pdf` or `xlsx`', examples: ['pdf', 'xlsx'] })) },
  { $id: 'ReportQuery' },
);
export type ReportQuery = Static<typeof ReportQuery>;

const tags = ['reports'] as const;
const produces = [REPORT_CONTENT_TYPES.pdf, REPORT_CONTENT_TYPES.xlsx] as const;
export const reportsApi = {
  /** The report of one job: image and overlay, calibration, model and version, settings, every table and chart. */
  job: endpoint({
    method: 'GET',
    path: '/jobs/:id/report',
    operationId: 'getJobReport',
    tags,
    summary: 'Report of a job (PDF or XLSX)',
    params: IdParams,
    querystring: ReportQuery,
    response: { 200: FileDownload },
    produces,
  }),
  /** The specimen report of a project: each image (field) with its values, then the field statistics per method. */
  project: endpoint({
    method: 'GET',
    path: '/projects/:id/report',
    operationId: 'getProjectReport',
    tags,
    summary: 'Specimen report of a project (PDF or XLSX)',
    params: IdParams,
    querystring: ReportQuery,
    response: { 200: FileDownload },
    produces,
  }),
};
