import { Type, type Static } from 'typebox';
import { LanguageSchema } from './common.ts';
import { endpoint } from './endpoint.ts';
import { LanguageParams } from './system.ts';

/**
 * Terms of use (issue 11 item 5; back-office.md §2 /admin/terms, accounts.md /terms and the register page's terms
 * modal). Staff edit the text per language; every save is a new version. The version number is shared by both
 * languages (saving either bumps it), and a signed-in user whose accepted version is older than the current one
 * accepts the new terms before going on (GET /terms/pending, POST /terms/accept).
 */

/** The current terms in one language. `version` 0 and `publishedAt` null: the built-in text, nothing published yet. */
export const TermsText = Type.Object(
  {
    language: LanguageSchema,
    content: Type.String({ description: 'HTML' }),
    version: Type.Integer({ minimum: 0, description: 'The current terms version (shared by both languages)' }),
    publishedAt: Type.Union([Type.String(), Type.Null()], { description: 'When the current version was published' }),
  },
  { $id: 'TermsText' },
);
export type TermsText = Static<typeof TermsText>;

export const TermsLanguageParams = Type.Object({ language: LanguageSchema }, { $id: 'TermsLanguageParams' });
export type TermsLanguageParams = Static<typeof TermsLanguageParams>;

/** The back-office editor's view of one language: its latest text and who saved it when. */
export const AdminTerms = Type.Object(
  {
    language: LanguageSchema,
    content: Type.String({ description: 'HTML' }),
    /** The version this language's text was saved as (0: the built-in text). */
    version: Type.Integer({ minimum: 0 }),
    /** The current version of the terms (either language's latest save). */
    currentVersion: Type.Integer({ minimum: 0 }),
    publishedAt: Type.Union([Type.String(), Type.Null()]),
    publishedBy: Type.Union([Type.Object({ id: Type.String(), fullName: Type.String() }), Type.Null()]),
  },
  { $id: 'AdminTerms' },
);
export type AdminTerms = Static<typeof AdminTerms>;

export const TermsBody = Type.Object(
  { content: Type.Optional(Type.String({ maxLength: 2_000_000, description: 'Rich text (HTML), sanitised by the server' })) },
  { $id: 'TermsBody' },
);
export type TermsBody = Static<typeof TermsBody>;

export const SavedTerms = Type.Object({ ...AdminTerms.properties, message: Type.String() }, { $id: 'SavedTerms' });
export type SavedTerms = Static<typeof SavedTerms>;

/** Whether the caller still has to accept the current terms; when so, the text in the caller's language. */
export const PendingTerms = Type.Object(
  {
    pending: Type.Boolean(),
    acceptedVersion: Type.Integer({ minimum: 0 }),
    currentVersion: Type.Integer({ minimum: 0 }),
    terms: Type.Union([TermsText, Type.Null()]),
  },
  { $id: 'PendingTerms' },
);
export type PendingTerms = Static<typeof PendingTerms>;

/** The version the user read and accepts; it must be the current one (409 TERMS_VERSION_OUTDATED otherwise). */
export const AcceptTermsBody = Type.Object({ version: Type.Integer({ minimum: 1 }) }, { $id: 'AcceptTermsBody' });
export type AcceptTermsBody = Static<typeof AcceptTermsBody>;

const tags = ['terms'] as const;
export const termsApi = {
  current: endpoint({
    method: 'GET',
    path: '/terms/:lng',
    operationId: 'getTerms',
    tags,
    summary: 'The current terms in a language (English for an unknown one)',
    params: LanguageParams,
    response: { 200: TermsText },
  }),
  adminGet: endpoint({
    method: 'GET',
    path: '/admin/terms/:language',
    operationId: 'getAdminTerms',
    tags,
    params: TermsLanguageParams,
    response: { 200: AdminTerms },
  }),
  save: endpoint({
    method: 'PUT',
    path: '/admin/terms/:language',
    operationId: 'saveTerms',
    tags,
    summary: 'Publishes a new version of the terms in one language',
    params: TermsLanguageParams,
    body: TermsBody,
    response: { 200: SavedTerms },
  }),
  pending: endpoint({
    method: 'GET',
    path: '/terms/pending',
    operationId: 'getPendingTerms',
    tags,
    summary: 'Whether the caller must accept a newer version of the terms',
    response: { 200: PendingTerms },
  }),
  accept: endpoint({
    method: 'POST',
    path: '/terms/accept',
    operationId: 'acceptTerms',
    tags,
    body: AcceptTermsBody,
    response: { 200: PendingTerms },
  }),
};
