ALTER TABLE "jobs" ADD COLUMN "lease_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "jobs" ADD COLUMN "progress" double precision;--> statement-breakpoint
CREATE INDEX "jobs_queue_idx" ON "jobs" USING btree ("created_at") WHERE status = 'NEW';