import { pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './users.ts';

/**
 * Staff overrides of translation keys (back-office Settings → Translations), merged over packages/i18n/locales
 * when GET /api/languages/{lng} answers. `key` is `<namespace>.<path>` of a text in the English files. Owned by
 * modules/translations.
 */
export const translationOverrides = pgTable(
  'translation_overrides',
  {
    language: text('language').notNull(),
    key: text('key').notNull(),
    value: text('value').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    updatedBy: uuid('updated_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [primaryKey({ columns: [t.language, t.key] })],
);
