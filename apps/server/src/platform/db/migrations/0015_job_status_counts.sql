CREATE TABLE "job_status_count_changes" (
	"status" "job_status" NOT NULL,
	"day" date NOT NULL,
	"n" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "job_status_counts" (
	"status" "job_status" NOT NULL,
	"day" date NOT NULL,
	"n" bigint NOT NULL,
	CONSTRAINT "job_status_counts_status_day_pk" PRIMARY KEY("status","day")
);
--> statement-breakpoint
-- Exact job counts per (status, UTC creation day) for the back-office dashboard totals (admin-dashboard/repo.ts).
-- Every change of a job's status or creation day appends signed rows to job_status_count_changes: no shared
-- counter row is locked by job writers, so concurrent job updates (replicas) neither wait on each other nor
-- deadlock; the dashboard folds the changes into job_status_counts in one statement and reads both tables.
-- The lock keeps jobs unchanged between creating the triggers and the backfill (it is held until the migration
-- transaction commits).
LOCK TABLE "jobs" IN SHARE ROW EXCLUSIVE MODE;
--> statement-breakpoint
CREATE FUNCTION "job_status_counts_rows"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO "job_status_count_changes" ("status", "day", "n")
      SELECT "status", ("created_at" AT TIME ZONE 'UTC')::date, count(*) FROM "new_jobs" GROUP BY 1, 2;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO "job_status_count_changes" ("status", "day", "n")
      SELECT "status", ("created_at" AT TIME ZONE 'UTC')::date, -count(*) FROM "old_jobs" GROUP BY 1, 2;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION "job_status_counts_row"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "job_status_count_changes" ("status", "day", "n") VALUES
    (OLD."status", (OLD."created_at" AT TIME ZONE 'UTC')::date, -1),
    (NEW."status", (NEW."created_at" AT TIME ZONE 'UTC')::date, 1);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION "job_status_counts_truncate"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "job_status_count_changes";
  DELETE FROM "job_status_counts";
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "jobs_status_counts_insert" AFTER INSERT ON "jobs" REFERENCING NEW TABLE AS "new_jobs"
  FOR EACH STATEMENT EXECUTE FUNCTION "job_status_counts_rows"();
--> statement-breakpoint
CREATE TRIGGER "jobs_status_counts_delete" AFTER DELETE ON "jobs" REFERENCING OLD TABLE AS "old_jobs"
  FOR EACH STATEMENT EXECUTE FUNCTION "job_status_counts_rows"();
--> statement-breakpoint
CREATE TRIGGER "jobs_status_counts_update" AFTER UPDATE OF "status", "created_at" ON "jobs" FOR EACH ROW
  WHEN (OLD."status" IS DISTINCT FROM NEW."status" OR OLD."created_at" IS DISTINCT FROM NEW."created_at")
  EXECUTE FUNCTION "job_status_counts_row"();
--> statement-breakpoint
CREATE TRIGGER "jobs_status_counts_truncate" AFTER TRUNCATE ON "jobs" FOR EACH STATEMENT
  EXECUTE FUNCTION "job_status_counts_truncate"();
--> statement-breakpoint
INSERT INTO "job_status_counts" ("status", "day", "n")
  SELECT "status", ("created_at" AT TIME ZONE 'UTC')::date, count(*) FROM "jobs" GROUP BY 1, 2;
