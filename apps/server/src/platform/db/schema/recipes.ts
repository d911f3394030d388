import { index, integer, jsonb, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { images } from './images.ts';
import { projects } from './projects.ts';
import { users } from './users.ts';

/**
 * A recipe (issue 22): the user's named pixel classifier, which class each model measures; their own, shareable
 * with a project (its members read and apply it). Every save is a new version; jobs name the version they ran.
 */
export const recipes = pgTable(
  'recipes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    ownerId: uuid('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** Shared with this project's members (read and apply), or null. */
    projectId: uuid('project_id').references(() => projects.id, { onDelete: 'set null' }),
    name: text('name').notNull(),
    currentVersion: integer('current_version').notNull().default(1),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('recipes_owner_idx').on(t.ownerId, t.name), index('recipes_project_idx').on(t.projectId)],
);

/** One saved version of a recipe: classes, measures, the strokes or grey ranges and the trained classifier. */
export const recipeVersions = pgTable(
  'recipe_versions',
  {
    recipeId: uuid('recipe_id')
      .notNull()
      .references(() => recipes.id, { onDelete: 'cascade' }),
    version: integer('version').notNull(),
    /** [{name, colour}] */
    classes: jsonb('classes').$type<Array<{ name: string; colour: string }>>().notNull(),
    /** Which class each model measures ({layer, phase, crack, crackRegion}). */
    measures: jsonb('measures').$type<Record<string, unknown>>().notNull(),
    /** The image the strokes were drawn on. */
    imageId: uuid('image_id').references(() => images.id, { onDelete: 'set null' }),
    strokes: jsonb('strokes').$type<unknown[]>().notNull().default([]),
    greyRanges: jsonb('grey_ranges').$type<unknown[] | null>(),
    /** The trained classifier (packages/analysis PixelClassifier JSON). */
    classifier: jsonb('classifier').$type<Record<string, unknown>>().notNull(),
    createdById: uuid('created_by_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.recipeId, t.version] })],
);
