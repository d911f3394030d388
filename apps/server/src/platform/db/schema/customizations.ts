import { index, integer, jsonb, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { computeModels } from './models.ts';
import { users } from './users.ts';

/** Customization group: model settings for its members, inheriting from parent groups by priority. */
export const customizationGroups = pgTable(
  'customization_groups',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    nameEn: text('name_en').notNull(),
    nameDe: text('name_de').notNull(),
    description: text('description'),
    modelId: uuid('model_id')
      .notNull()
      .references(() => computeModels.id, { onDelete: 'cascade' }),
    /** The group's own settings (user input); resolved settings are computed through the parents. */
    settings: jsonb('settings').$type<Record<string, unknown>>().notNull().default({}),
    /** The model version the members' jobs run with (issue 25: a customer's own trained version); null: the model's current one. */
    modelVersion: text('model_version'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('customization_groups_model_idx').on(t.modelId)],
);

export const customizationMembers = pgTable(
  'customization_members',
  {
    groupId: uuid('group_id')
      .notNull()
      .references(() => customizationGroups.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.groupId, t.userId] }), index('customization_members_user_idx').on(t.userId)],
);

export const customizationParents = pgTable(
  'customization_parents',
  {
    groupId: uuid('group_id')
      .notNull()
      .references(() => customizationGroups.id, { onDelete: 'cascade' }),
    parentId: uuid('parent_id')
      .notNull()
      .references(() => customizationGroups.id, { onDelete: 'cascade' }),
    priority: integer('priority').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.groupId, t.parentId] })],
);
