import { index, pgTable, primaryKey, timestamp, uuid } from 'drizzle-orm/pg-core';
import { images } from './images.ts';
import { projects } from './projects.ts';
import { users } from './users.ts';

/** The images a project holds (an image can be in several projects); the project's jobs are the jobs of these images. */
export const projectImages = pgTable(
  'project_images',
  {
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    imageId: uuid('image_id')
      .notNull()
      .references(() => images.id, { onDelete: 'cascade' }),
    addedById: uuid('added_by_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.imageId] }), index('project_images_image_idx').on(t.imageId)],
);
