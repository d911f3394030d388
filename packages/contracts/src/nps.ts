import { Type, type Static } from 'typebox';
import { endpoint } from './endpoint.ts';

/**
 * The NPS question ("How likely are you to recommend Lamella…", 0–10): a small dismissible prompt on the user's
 * dashboard once they have NPS_AFTER_JOBS successful jobs, at most one answer per NPS_PERIOD_DAYS; closing it without
 * answering keeps it away for the same period. The answers feed the back-office dashboard's NPS card.
 */
export const NPS_AFTER_JOBS = 5;
export const NPS_PERIOD_DAYS = 90;

/** Whether the prompt is due for the caller now. */
export const NpsPrompt = Type.Object(
  {
    due: Type.Boolean(),
    /** Successful jobs needed before the first prompt, and the period of one answer. */
    afterJobs: Type.Integer(),
    periodDays: Type.Integer(),
    /** The caller's last answer or dismissal (ISO), or null. */
    lastAnsweredAt: Type.Union([Type.String(), Type.Null()]),
  },
  { $id: 'NpsPrompt' },
);
export type NpsPrompt = Static<typeof NpsPrompt>;

export const NpsAnswerBody = Type.Object(
  {
    score: Type.Integer({ minimum: 0, maximum: 10, description: '0 (not at all likely) … 10 (extremely likely)' }),
    comment: Type.Optional(Type.String({ maxLength: 2000 })),
  },
  { $id: 'NpsAnswerBody' },
);
export type NpsAnswerBody = Static<typeof NpsAnswerBody>;

export const NpsAnswered = Type.Object({ score: Type.Integer(), createdAt: Type.String(), message: Type.String() }, { $id: 'NpsAnswered' });
export type NpsAnswered = Static<typeof NpsAnswered>;

const tags = ['nps'] as const;
export const npsApi = {
  prompt: endpoint({
    method: 'GET',
    path: '/nps',
    operationId: 'getNpsPrompt',
    tags,
    summary: 'Whether the NPS prompt is due for the caller',
    response: { 200: NpsPrompt },
  }),
  answer: endpoint({
    method: 'POST',
    path: '/nps',
    operationId: 'answerNps',
    tags,
    summary: 'Stores the caller’s NPS answer (one per period; 409 NPS_ALREADY_ANSWERED otherwise)',
    body: NpsAnswerBody,
    response: { 200: NpsAnswered },
  }),
  dismiss: endpoint({
    method: 'POST',
    path: '/nps/dismiss',
    operationId: 'dismissNps',
    tags,
    summary: 'Closes the prompt without an answer until the next period',
    response: { 200: NpsPrompt },
  }),
};
