import { bigint, boolean, doublePrecision, index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { licenseTypeEnum, users } from './users.ts';

/** An uploaded micrograph: original plus `thumbnail` and `display` renditions in storage. */
export const images = pgTable(
  'images',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    ownerId: uuid('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** Spelled as in the spec's wire format. */
    orginalFilename: text('orginal_filename').notNull(),
    /** Storage key of the original. */
    filename: text('filename').notNull(),
    /** SHA-256 of the original bytes (job cache key, duplicate detection). */
    sha256: text('sha256').notNull(),
    format: text('format').notNull(),
    width: integer('width').notNull(),
    height: integer('height').notNull(),
    bitDepth: integer('bit_depth').notNull().default(8),
    size: bigint('size', { mode: 'number' }).notNull(),
    validated: boolean('validated').notNull().default(true),
    allowedTrainingUse: boolean('allowed_training_use').notNull().default(false),
    /** The user's calibration in µm per pixel (upload field or set-scale tool); null: from metadata, scale bar or settings. */
    pixelSizeUm: doublePrecision('pixel_size_um'),
    isDeleted: boolean('is_deleted').notNull().default(false),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('images_owner_idx').on(t.ownerId, t.createdAt),
    index('images_created_idx').on(t.createdAt),
    index('images_sha_idx').on(t.sha256),
    // Admin jobs list sorted by image name: images walked in name order.
    index('images_original_filename_idx').on(t.orginalFilename),
  ],
);

/** Image storage quota per licence type (MB of originals); no row or null: no quota. Set by ADMIN. */
export const storageQuotas = pgTable('storage_quotas', {
  licenseType: licenseTypeEnum('license_type').primaryKey(),
  quotaMb: integer('quota_mb'),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
