import { translate, type Language } from '@lamella/i18n';
import { NPS_AFTER_JOBS, NPS_PERIOD_DAYS, type NpsAnswerBody, type NpsAnswered, type NpsPrompt } from '@lamella/contracts';
import { sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.ts';
import { AppError } from '../../platform/http/errors.ts';
import * as repo from './nps-repo.ts';

/**
 * The NPS question (issue 26): customers (role USER) with NPS_AFTER_JOBS successful jobs are asked once per
 * NPS_PERIOD_DAYS; an answer or a dismissal keeps the prompt away for a period. The answers are the back-office
 * dashboard's NPS (admin-dashboard npsCounts).
 */
const PERIOD_MS = NPS_PERIOD_DAYS * 86_400_000;
type Caller = { id: string; role: string };

const latest = (a: Date | null, b: Date | null) => (a && b ? (a > b ? a : b) : (a ?? b));

export async function prompt(db: Db, user: Caller, now = new Date()): Promise<NpsPrompt> {
  const [answered, dismissed] = await Promise.all([repo.lastAnswer(db, user.id), repo.lastDismissal(db, user.id)]);
  const last = latest(answered, dismissed);
  const base = { afterJobs: NPS_AFTER_JOBS, periodDays: NPS_PERIOD_DAYS, lastAnsweredAt: last?.toISOString() ?? null };
  if (user.role !== 'USER') return { ...base, due: false };
  if (last && now.getTime() - last.getTime() < PERIOD_MS) return { ...base, due: false };
  const jobs = await repo.successfulJobs(db, user.id, NPS_AFTER_JOBS);
  return { ...base, due: jobs >= NPS_AFTER_JOBS };
}

export async function answer(db: Db, user: Caller, body: NpsAnswerBody, lng: Language): Promise<NpsAnswered> {
  if (user.role !== 'USER') throw new AppError(403, 'NPS_CUSTOMERS_ONLY', 'insights.nps.errors.customersOnly');
  const comment = body.comment?.trim() || null;
  const row = await db.transaction(async (t) => {
    const tx = t as unknown as Db;
    // one answer per period, also under concurrent submits: the user's answers are serialised by an advisory lock
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`nps:${user.id}`}))`);
    if (await repo.answersSince(tx, user.id, new Date(Date.now() - PERIOD_MS)))
      throw new AppError(409, 'NPS_ALREADY_ANSWERED', 'insights.nps.errors.alreadyAnswered', { days: NPS_PERIOD_DAYS });
    return repo.insertAnswer(tx, user.id, body.score, comment);
  });
  return { score: row.score, createdAt: row.createdAt.toISOString(), message: translate(lng, 'insights.nps.thanks') };
}

export async function dismiss(db: Db, user: Caller): Promise<NpsPrompt> {
  await repo.dismiss(db, user.id, new Date());
  return prompt(db, user);
}
