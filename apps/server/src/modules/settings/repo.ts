import { and, eq, gt, isNotNull, isNull, lte, ne, notExists, or, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db } from '../../platform/db/client.ts';
import { licenseReminders, licenses, users } from '../../platform/db/schema/index.ts';

export type ReminderKind = 'EXPIRY' | 'EXTENSION_EXPIRY';

export interface ReminderCandidate {
  licenseId: string;
  kind: ReminderKind;
  finishAt: Date;
  email: string;
  name: string;
  language: string;
}

const DAY_MS = 86_400_000;

/**
 * Demo licenses (type DEMO, active, of a user who is not blocked) that end within the reminder window of their
 * kind and have no reminder of that kind yet: EXTENSION_EXPIRY when the user's demo was extended for training
 * consent (`training_bonus_granted_at` set), EXPIRY otherwise. A demo that a newer license of the user outlasts is
 * skipped (the user is not losing access). Read-only over the users' and licenses' tables.
 */
export async function reminderCandidates(db: Db, now: Date, beforeExpiryDays: number, beforeExtensionDays: number): Promise<ReminderCandidate[]> {
  const newer = alias(licenses, 'newer');
  const extended = isNotNull(users.trainingBonusGrantedAt);
  const kind = sql<ReminderKind>`case when ${extended} then 'EXTENSION_EXPIRY' else 'EXPIRY' end`;
  const rows = await db
    .select({
      licenseId: licenses.id,
      kind,
      finishAt: licenses.finishAt,
      email: users.email,
      name: users.name,
      language: users.language,
    })
    .from(licenses)
    .innerJoin(users, eq(users.id, licenses.userId))
    .where(
      and(
        eq(licenses.type, 'DEMO'),
        eq(licenses.active, true),
        ne(users.role, 'BLOCKED'),
        gt(licenses.finishAt, now),
        or(
          and(extended, lte(licenses.finishAt, new Date(now.getTime() + beforeExtensionDays * DAY_MS))),
          and(isNull(users.trainingBonusGrantedAt), lte(licenses.finishAt, new Date(now.getTime() + beforeExpiryDays * DAY_MS))),
        ),
        notExists(
          db
            .select({ one: sql`1` })
            .from(licenseReminders)
            .where(and(eq(licenseReminders.licenseId, licenses.id), eq(licenseReminders.kind, kind))),
        ),
        notExists(
          db
            .select({ one: sql`1` })
            .from(newer)
            .where(
              and(
                eq(newer.userId, licenses.userId),
                ne(newer.id, licenses.id),
                eq(newer.active, true),
                gt(newer.createdAt, licenses.createdAt),
                or(isNull(newer.finishAt), gt(newer.finishAt, licenses.finishAt)),
              ),
            ),
        ),
      ),
    );
  return rows.map((r) => ({ ...r, finishAt: r.finishAt as Date }));
}

/** Claims the reminder (one row per license and kind): true for the one caller that inserted it. */
export async function claimReminder(db: Db, licenseId: string, kind: ReminderKind): Promise<boolean> {
  const rows = await db
    .insert(licenseReminders)
    .values({ licenseId, kind })
    .onConflictDoNothing()
    .returning({ licenseId: licenseReminders.licenseId });
  return rows.length === 1;
}

/** Gives a claim back after the mail could not be sent, so the next run tries again. */
export async function releaseReminder(db: Db, licenseId: string, kind: ReminderKind): Promise<void> {
  await db.delete(licenseReminders).where(and(eq(licenseReminders.licenseId, licenseId), eq(licenseReminders.kind, kind)));
}

/** Runs `fn` in one transaction (the transaction handed over as a Db). */
export function inTransaction<T>(db: Db, fn: (tx: Db) => Promise<T>): Promise<T> {
  return db.transaction((tx) => fn(tx as unknown as Db));
}
