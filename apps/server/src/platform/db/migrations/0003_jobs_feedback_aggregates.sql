ALTER TABLE "jobs" ADD COLUMN "user_rating" smallint;--> statement-breakpoint
ALTER TABLE "jobs" ADD COLUMN "admin_rating_mean" numeric;--> statement-breakpoint
ALTER TABLE "jobs" ADD COLUMN "submitted_masks" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Backfill from the children (before the indexes are built: one pass each, only the jobs that have children).
UPDATE "jobs" j SET "user_rating" = f.k FROM (SELECT "job_id", max("rating") AS k FROM "user_feedback" GROUP BY "job_id") f WHERE f."job_id" = j."id";--> statement-breakpoint
UPDATE "jobs" j SET "admin_rating_mean" = a.k FROM (SELECT "job_id", avg(("scale_number" + "scale_length" + "resin" + "results") / 4.0) AS k FROM "admin_feedback" GROUP BY "job_id") a WHERE a."job_id" = j."id";--> statement-breakpoint
UPDATE "jobs" j SET "submitted_masks" = k.n FROM (SELECT "job_id", count(*) AS n FROM "masks" WHERE "is_submitted" AND "job_id" IS NOT NULL GROUP BY "job_id") k WHERE k."job_id" = j."id";--> statement-breakpoint
CREATE INDEX "jobs_user_rating_idx" ON "jobs" USING btree ("user_rating" NULLS FIRST,"created_at","id");--> statement-breakpoint
CREATE INDEX "jobs_admin_rating_idx" ON "jobs" USING btree ("admin_rating_mean" NULLS FIRST,"created_at","id");--> statement-breakpoint
CREATE INDEX "jobs_submitted_masks_idx" ON "jobs" USING btree ("submitted_masks","created_at","id");--> statement-breakpoint
ANALYZE "jobs";