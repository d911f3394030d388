import { translate } from '@lamella/i18n';
import type { Db } from '../../platform/db/client.ts';
import type { Mailer, MailMessage } from '../../platform/mail/mailer.ts';
import { getDemoLicense } from '../system/service.ts';
import * as repo from './repo.ts';

/**
 * Demo license reminders (back-office.md §3 "Demo license settings": reminderBeforeExpiry,
 * reminderBeforeExtensionExpiry, in days). A scheduled task mails each user whose demo license ends within the
 * window once per license and kind, in the user's language. Safe with several replicas: each reminder is claimed
 * by inserting its row first (repo.claimReminder), so only one process sends it.
 */
export interface ReminderDeps {
  db: Db;
  mailer: Pick<Mailer, 'send'>;
  publicUrl: string;
  log?: (message: string) => void;
}

const templates = {
  EXPIRY: {
    subject: 'reminderMail.expiry.subject',
    body: 'reminderMail.expiry.body',
  },
  EXTENSION_EXPIRY: {
    subject: 'reminderMail.extensionExpiry.subject',
    body: 'reminderMail.extensionExpiry.body',
  },
} as const;

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function formatDate(date: Date, lng: string): string {
  return new Intl.DateTimeFormat(lng === 'de' ? 'de-DE' : 'en-GB', { dateStyle: 'long', timeZone: 'UTC' }).format(date);
}

/** The reminder mail of one license in the recipient's language. */
export function renderReminder(c: repo.ReminderCandidate, publicUrl: string, now: Date): MailMessage {
  const lng = c.language;
  const days = Math.max(1, Math.ceil((c.finishAt.getTime() - now.getTime()) / 86_400_000));
  const link = `${publicUrl}/dashboard`;
  const vars = { name: c.name, date: formatDate(c.finishAt, lng), days };
  const keys = templates[c.kind];
  const greeting = translate(lng, 'reminderMail.greeting', vars);
  const body = translate(lng, keys.body, vars);
  const action = translate(lng, 'reminderMail.action');
  const footer = translate(lng, 'reminderMail.footer');
  const text = `${greeting}\n\n${body}\n\n${action}: ${link}\n\n${footer}\n`;
  const html = `<!doctype html><html><body style="font-family:sans-serif;color:#1a1b1e">
<p>${escapeHtml(greeting)}</p><p>${escapeHtml(body)}</p>
<p><a href="${escapeHtml(link)}" style="background:#1c7ed6;color:#fff;padding:10px 16px;border-radius:4px;text-decoration:none">${escapeHtml(action)}</a></p>
<p style="font-size:12px;color:#666">${escapeHtml(footer)}</p>
</body></html>`;
  return { to: c.email, subject: translate(lng, keys.subject, vars), text, html };
}

/** One run: mails every due reminder not sent yet; answers how many were sent. */
export async function runReminders(deps: ReminderDeps, now = new Date()): Promise<number> {
  const demo = await getDemoLicense(deps.db);
  const due = await repo.reminderCandidates(deps.db, now, demo.reminderBeforeExpiry, demo.reminderBeforeExtensionExpiry);
  let sent = 0;
  for (const c of due) {
    if (!(await repo.claimReminder(deps.db, c.licenseId, c.kind))) continue;
    try {
      await deps.mailer.send(renderReminder(c, deps.publicUrl, now));
      sent += 1;
    } catch (err) {
      await repo.releaseReminder(deps.db, c.licenseId, c.kind);
      deps.log?.(`demo license reminder to ${c.email} failed: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  return sent;
}

export interface ReminderScheduler {
  /** Resolves when the run under way (if any) has finished. */
  stop(): Promise<void>;
}

/** Runs the reminders at once and then every `intervalMs`; a tick while a run is under way is skipped. */
export function startReminders(deps: ReminderDeps, intervalMs: number): ReminderScheduler {
  let running: Promise<void> = Promise.resolve();
  let busy = false;
  let stopped = false;
  const tick = () => {
    if (stopped || busy) return;
    busy = true;
    running = runReminders(deps)
      .then(
        (n) => {
          if (n) deps.log?.(`demo license reminders sent: ${n}`);
        },
        (err: unknown) => deps.log?.(`demo license reminders failed: ${err instanceof Error ? err.message : String(err)}`),
      )
      .finally(() => {
        busy = false;
      });
  };
  const first = setTimeout(tick, 0);
  const timer = setInterval(tick, intervalMs);
  timer.unref();
  return {
    async stop() {
      stopped = true;
      clearTimeout(first);
      clearInterval(timer);
      await running;
    },
  };
}
