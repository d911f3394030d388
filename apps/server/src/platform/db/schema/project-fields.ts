import { pgTable, primaryKey, timestamp, uuid } from 'drizzle-orm/pg-core';
import { images } from './images.ts';
import { jobs } from './jobs.ts';
import { computeModels } from './models.ts';
import { projects } from './projects.ts';
import { users } from './users.ts';

/**
 * The accepted fields of a project (issue 24): for an image and a model, the job a member (owner or EDITOR) accepted
 * as the field's value. An accepted field is locked: a later job of the image does not replace it until another
 * job is accepted (or the choice is released). Without a row, the field is the newest finished job of the image
 * started in the project.
 */
export const projectFields = pgTable(
  'project_fields',
  {
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    imageId: uuid('image_id')
      .notNull()
      .references(() => images.id, { onDelete: 'cascade' }),
    modelId: uuid('model_id')
      .notNull()
      .references(() => computeModels.id, { onDelete: 'cascade' }),
    jobId: uuid('job_id')
      .notNull()
      .references(() => jobs.id, { onDelete: 'cascade' }),
    acceptedById: uuid('accepted_by_id').references(() => users.id, { onDelete: 'set null' }),
    acceptedAt: timestamp('accepted_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.imageId, t.modelId] })],
);
