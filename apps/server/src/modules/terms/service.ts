import { translate, isLanguage, type Language } from '@lamella/i18n';
import type { AdminTerms, PendingTerms, SavedTerms, TermsBody, TermsText } from '@lamella/contracts';
import type { Db } from '../../platform/db/client.ts';
import { AppError } from '../../platform/http/errors.ts';
import { FieldErrors } from '../../platform/http/field-errors.ts';
import { recordAudit } from '../audit/service.ts';
import { cleanHtml } from '../compute-models/service.ts';
import { findUserById } from '../users/service.ts';
import { defaultTerms } from './default-terms.ts';
import * as repo from './repo.ts';

/**
 * Terms of use, versioned. Each save of a language's text that changes it is a new version; the version number is
 * shared by both languages, so the current version is the newest save of either language, and a user whose
 * accepted version is lower must accept the current terms (the web app asks right after sign-in). The built-in
 * text (default-terms.ts) is version 0.
 */

const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);

/** The current terms in a language (English for an unknown one): the newest saved text, else the built-in one. */
export async function current(db: Db, lng: string): Promise<TermsText> {
  const language: Language = isLanguage(lng) ? lng : 'en';
  const [row, latest] = await Promise.all([repo.latestOf(db, language), repo.latestAny(db)]);
  return { language, content: row?.content ?? defaultTerms[language], version: latest?.version ?? 0, publishedAt: iso(latest?.createdAt) };
}

/** GET /admin/terms/{language}: the editor's text of one language, its version and who saved it when. */
export async function adminGet(db: Db, language: Language): Promise<AdminTerms> {
  const [row, currentVersion] = await Promise.all([repo.latestOf(db, language), repo.currentVersion(db)]);
  const author = row?.createdBy ? await findUserById(db, row.createdBy) : undefined;
  return {
    language,
    content: row?.content ?? defaultTerms[language],
    version: row?.version ?? 0,
    currentVersion,
    publishedAt: iso(row?.createdAt),
    publishedBy: author ? { id: author.id, fullName: `${author.name} ${author.surname}`.trim() } : null,
  };
}

const isUniqueViolation = (error: unknown) => {
  const e = error as { code?: string; cause?: { code?: string } };
  return e?.code === '23505' || e?.cause?.code === '23505';
};

/** Text a person would see in the HTML (images count), to tell an empty editor from content. */
function visibleText(html: string): string {
  return html
    .replace(/<img\b/gi, 'x<img')
    .replace(/<[^>]*>/g, '')
    .replace(/&nbsp;/g, ' ')
    .trim();
}

/**
 * PUT /admin/terms/{language}: sanitises the HTML (the sanitiser of insights and news) and publishes it as the next
 * version, audited. Saving the same text again publishes nothing (users are not asked to accept an unchanged text).
 */
export async function save(db: Db, actorId: string, language: Language, body: TermsBody, lng: Language): Promise<SavedTerms> {
  const content = typeof body.content === 'string' ? cleanHtml(body.content).trim() : '';
  new FieldErrors().add('content', visibleText(content) ? null : 'adminTerms.errors.contentRequired').throwIfAny();
  const latest = await repo.latestOf(db, language);
  if (latest?.content !== content) {
    for (let attempt = 1; ; attempt++) {
      try {
        await repo.inTransaction(db, async (tx) => {
          const row = await repo.insertVersion(tx, { language, content, createdBy: actorId });
          await recordAudit(tx, {
            actorId,
            action: 'terms.publish',
            targetType: 'terms',
            targetId: row.id,
            details: { language, version: row.version },
          });
        });
        break;
      } catch (error) {
        // Two saves at once computed the same number: the loser takes the next one.
        if (!isUniqueViolation(error) || attempt >= 5) throw error;
      }
    }
  }
  return { ...(await adminGet(db, language)), message: translate(lng, 'adminTerms.messages.updated') };
}

/** Whether the user must accept the current terms; when so, the text in the caller's language. */
export async function pending(db: Db, userId: string, lng: Language): Promise<PendingTerms> {
  const [acceptedVersion, currentVersion] = await Promise.all([repo.acceptedVersion(db, userId), repo.currentVersion(db)]);
  const isPending = acceptedVersion < currentVersion;
  return { pending: isPending, acceptedVersion, currentVersion, terms: isPending ? await current(db, lng) : null };
}

/** POST /terms/accept: the user accepts the version they read, which must still be the current one. */
export async function accept(db: Db, userId: string, version: number, lng: Language): Promise<PendingTerms> {
  const currentVersion = await repo.currentVersion(db);
  if (version !== currentVersion) {
    throw new AppError(409, 'TERMS_VERSION_OUTDATED', 'adminTerms.errors.versionOutdated', { version: currentVersion }, [
      { field: 'version', key: 'adminTerms.errors.versionOutdated', vars: { version: currentVersion } },
    ]);
  }
  await repo.recordAcceptance(db, userId, version);
  return pending(db, userId, lng);
}

/** Sign-up: the new user accepted the terms shown on the register page, i.e. the current version. */
export async function recordSignupAcceptance(db: Db, userId: string): Promise<void> {
  await repo.recordAcceptance(db, userId, await repo.currentVersion(db));
}
