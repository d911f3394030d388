import { Type, type Static } from 'typebox';
import { endpoint } from './endpoint.ts';

/** A user's rating of a job's result and issue reports (user-app.md §7 results page). */

const Uuid = Type.String({ format: 'uuid' });

/** One rating per user and job (1 to 5), replaced on re-rating. */
export const RateJobBody = Type.Object(
  { jobId: Uuid, rating: Type.Integer(), comment: Type.Optional(Type.Union([Type.String({ maxLength: 5000 }), Type.Null()])) },
  { additionalProperties: false, $id: 'RateJobBody' },
);
export type RateJobBody = Static<typeof RateJobBody>;
export const JobRating = Type.Object(
  { jobId: Type.String(), rating: Type.Integer(), comment: Type.Union([Type.String(), Type.Null()]) },
  { $id: 'JobRating' },
);
export type JobRating = Static<typeof JobRating>;

export const IssueReportBody = Type.Object(
  {
    jobId: Uuid,
    calculationDate: Type.Optional(Type.String({ maxLength: 100 })),
    modelName: Type.Optional(Type.String({ maxLength: 200 })),
    modelVersion: Type.Optional(Type.String({ maxLength: 100 })),
    details: Type.String({ maxLength: 10000 }),
  },
  { additionalProperties: false, $id: 'IssueReportBody' },
);
export type IssueReportBody = Static<typeof IssueReportBody>;
export const IssueReportCreated = Type.Object({ id: Type.String(), status: Type.Literal('OK') }, { $id: 'IssueReportCreated' });
export type IssueReportCreated = Static<typeof IssueReportCreated>;

const tags = ['feedback'] as const;
export const feedbackApi = {
  rate: endpoint({ method: 'POST', path: '/feedback', operationId: 'rateJob', tags, body: RateJobBody, response: { 200: JobRating } }),
  reportIssue: endpoint({
    method: 'POST',
    path: '/issue-reports',
    operationId: 'createIssueReport',
    tags,
    body: IssueReportBody,
    response: { 200: IssueReportCreated },
  }),
};
