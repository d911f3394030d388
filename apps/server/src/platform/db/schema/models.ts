import { boolean, index, integer, jsonb, pgEnum, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { users } from './users.ts';

export const accessTypeEnum = pgEnum('access_type', ['PUBLIC', 'PRIVATE']);
export const manualPositionEnum = pgEnum('manual_position', ['TOP', 'BOTTOM']);

/** ComputeModel of back-office.md §3. `internalName` is also the translation key and the analysis model name. */
export const computeModels = pgTable(
  'compute_models',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    internalName: text('internal_name').notNull(),
    routingPath: text('routing_path').notNull(),
    storagePath: text('storage_path').notNull(),
    displayName: text('display_name').notNull(),
    /** The name shown to German readers; null: the translation of a built-in model's shipped name, else displayName. */
    displayNameDe: text('display_name_de'),
    /** The current version, e.g. 20250101. Jobs run with an older version are Outdated. */
    version: text('version').notNull(),
    accessType: accessTypeEnum('access_type').notNull().default('PRIVATE'),
    isDefaultVisible: boolean('is_default_visible').notNull().default(true),
    /** Built-in models come from packages/analysis and are registered at start. */
    builtIn: boolean('built_in').notNull().default(false),
    /** A model with jobs is archived instead of deleted: hidden from users, its jobs kept; null: in use. */
    archivedAt: timestamp('archived_at', { withTimezone: true }),
    exampleEn: text('example_en'),
    exampleDe: text('example_de'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('compute_models_name_unique').on(t.internalName)],
);

/** Versions of a model as reported by launchers. */
export const modelVersions = pgTable(
  'model_versions',
  {
    modelId: uuid('model_id')
      .notNull()
      .references(() => computeModels.id, { onDelete: 'cascade' }),
    version: text('version').notNull(),
    /** JSON Schema of the model's settings at this version. */
    settingsSchema: jsonb('settings_schema').$type<Record<string, unknown>>(),
    defaultSettings: jsonb('default_settings').$type<Record<string, unknown>>(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.modelId, t.version] })],
);

/** Grants of a PRIVATE model to a user. */
export const modelAccess = pgTable(
  'model_access',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    modelId: uuid('model_id')
      .notNull()
      .references(() => computeModels.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('model_access_unique').on(t.modelId, t.userId), index('model_access_user_idx').on(t.userId)],
);

export const modelManuals = pgTable(
  'model_manuals',
  {
    modelId: uuid('model_id')
      .notNull()
      .references(() => computeModels.id, { onDelete: 'cascade' }),
    position: manualPositionEnum('position').notNull(),
    language: text('language').notNull(),
    text: text('text').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.modelId, t.position, t.language] })],
);

/** A user's explicit favourite choice; without a row the model's isDefaultVisible applies. */
export const userFavorites = pgTable(
  'user_favorites',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    modelId: uuid('model_id')
      .notNull()
      .references(() => computeModels.id, { onDelete: 'cascade' }),
    favorite: boolean('favorite').notNull(),
    position: integer('position').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.userId, t.modelId] })],
);

export const modelNews = pgTable(
  'model_news',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    modelId: uuid('model_id').references(() => computeModels.id, { onDelete: 'cascade' }),
    titleEn: text('title_en').notNull(),
    titleDe: text('title_de').notNull(),
    contentEn: text('content_en').notNull(),
    contentDe: text('content_de').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('model_news_created_idx').on(t.createdAt)],
);

export const insights = pgTable('insights', {
  id: uuid('id').primaryKey().defaultRandom(),
  titleEn: text('title_en').notNull(),
  titleDe: text('title_de').notNull(),
  contentEn: text('content_en').notNull(),
  contentDe: text('content_de').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Key/value system settings: demo license, maintenance, terms per language, translation overrides. */
export const settings = pgTable('settings', {
  key: text('key').primaryKey(),
  value: jsonb('value').$type<unknown>().notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** The public images library (modules/public-images): the file is stored before its row is inserted (columns added in 0011). */
export const publicImages = pgTable('public_images', {
  filename: text('filename').primaryKey(),
  storageKey: text('storage_key').notNull(),
  contentType: text('content_type').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  orginalFilename: text('orginal_filename').notNull().default(''),
  /** Bytes (at most PUBLIC_IMAGE_MAX_BYTES). */
  size: integer('size').notNull().default(0),
  width: integer('width').notNull().default(0),
  height: integer('height').notNull().default(0),
  uploadedBy: uuid('uploaded_by').references(() => users.id, { onDelete: 'set null' }),
});
