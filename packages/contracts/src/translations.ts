import { Type, type Static } from 'typebox';
import { LanguageSchema } from './common.ts';
import { endpoint } from './endpoint.ts';

/**
 * Translation overrides (issue 11 item 6, back-office.md Settings → Translations): staff replace the text of any
 * key of packages/i18n/locales in English or German. Overrides are stored in the database and merged over the
 * files when GET /languages/{lng} answers; PUT /languages reloads the merged trees.
 */

/** One language of a key: the text of the file and the override (null: none). */
export const TranslationText = Type.Object(
  {
    file: Type.String(),
    override: Type.Union([Type.String(), Type.Null()]),
    updatedAt: Type.Union([Type.String(), Type.Null()]),
  },
  { description: 'One language of a key (nested, so no $id)' },
);
export type TranslationText = Static<typeof TranslationText>;

/** A key (`<namespace>.<path>`, e.g. `auth.login.title`) with both languages. */
export const TranslationEntry = Type.Object({ key: Type.String(), en: TranslationText, de: TranslationText }, { $id: 'TranslationEntry' });
export type TranslationEntry = Static<typeof TranslationEntry>;

export const TranslationSearchQuery = Type.Object(
  {
    search: Type.Optional(
      Type.String({ maxLength: 200, description: 'Part of a key or of its text (either language); empty: the keys with an override' }),
    ),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 50 })),
  },
  { $id: 'TranslationSearchQuery' },
);
export type TranslationSearchQuery = Static<typeof TranslationSearchQuery>;

export const TranslationList = Type.Object(
  {
    items: Type.Array(TranslationEntry),
    /** How many keys matched (items holds at most `limit`). */
    total: Type.Integer(),
    /** How many overrides are stored (both languages). */
    overrides: Type.Integer(),
  },
  { $id: 'TranslationList' },
);
export type TranslationList = Static<typeof TranslationList>;

export const TranslationOverrideBody = Type.Object(
  {
    language: LanguageSchema,
    key: Type.String({ maxLength: 300 }),
    /** Must keep the file text's `{{placeholders}}`, no more and no fewer. */
    value: Type.String({ maxLength: 10_000 }),
  },
  { $id: 'TranslationOverrideBody' },
);
export type TranslationOverrideBody = Static<typeof TranslationOverrideBody>;

export const TranslationOverrideParams = Type.Object(
  { language: LanguageSchema, key: Type.String({ maxLength: 300 }) },
  { $id: 'TranslationOverrideParams' },
);
export type TranslationOverrideParams = Static<typeof TranslationOverrideParams>;

export const SavedTranslationOverride = Type.Object({ entry: TranslationEntry, message: Type.String() }, { $id: 'SavedTranslationOverride' });
export type SavedTranslationOverride = Static<typeof SavedTranslationOverride>;

export const TranslationsReloaded = Type.Object({ message: Type.String() }, { $id: 'TranslationsReloaded' });
export type TranslationsReloaded = Static<typeof TranslationsReloaded>;

const tags = ['translations'] as const;
export const translationsApi = {
  list: endpoint({
    method: 'GET',
    path: '/admin/translations',
    operationId: 'listTranslationOverrides',
    tags,
    summary: 'Keys with their file texts and overrides, searched by key or text',
    querystring: TranslationSearchQuery,
    response: { 200: TranslationList },
  }),
  set: endpoint({
    method: 'PUT',
    path: '/admin/translations',
    operationId: 'setTranslationOverride',
    tags,
    summary: 'Sets the override of one key in one language (published by PUT /languages)',
    body: TranslationOverrideBody,
    response: { 200: SavedTranslationOverride },
  }),
  remove: endpoint({
    method: 'DELETE',
    path: '/admin/translations/:language/:key',
    operationId: 'deleteTranslationOverride',
    tags,
    params: TranslationOverrideParams,
    response: { 200: SavedTranslationOverride },
  }),
  reload: endpoint({
    method: 'PUT',
    path: '/languages',
    operationId: 'reloadTranslations',
    tags,
    summary: 'Reloads the translations: the files with the stored overrides merged over them',
    response: { 200: TranslationsReloaded },
  }),
};
