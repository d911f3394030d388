CREATE TABLE "job_owner_totals" (
	"owner_id" uuid NOT NULL,
	"model_id" uuid NOT NULL,
	"archived" boolean NOT NULL,
	"n" bigint NOT NULL,
	CONSTRAINT "job_owner_totals_owner_id_model_id_archived_pk" PRIMARY KEY("owner_id","model_id","archived")
);
--> statement-breakpoint
CREATE INDEX "jobs_owner_list_created_idx" ON "jobs" USING btree ("owner_id","archived","created_at","id") WHERE not deleted and source not in ('SANDBOX', 'IDENTIFICATION');--> statement-breakpoint
CREATE INDEX "jobs_owner_list_finished_idx" ON "jobs" USING btree ("owner_id","archived","finished_at","id") WHERE not deleted and source not in ('SANDBOX', 'IDENTIFICATION');--> statement-breakpoint
CREATE INDEX "jobs_owner_list_status_idx" ON "jobs" USING btree ("owner_id","archived","status","id") WHERE not deleted and source not in ('SANDBOX', 'IDENTIFICATION');--> statement-breakpoint
CREATE INDEX "jobs_owner_list_model_idx" ON "jobs" USING btree ("owner_id","model_id","archived","created_at","id") WHERE not deleted and source not in ('SANDBOX', 'IDENTIFICATION');--> statement-breakpoint
-- The per-owner totals of the user's job list (schema/jobs.ts jobOwnerTotals). Statement triggers with transition
-- tables: a batch of jobs changes each (owner, model, archived) row once, in key order (no deadlock between two
-- batches of one owner). Rows listed: not deleted, source not SANDBOX / IDENTIFICATION. The lock keeps jobs unchanged
-- between creating the triggers and the backfill (held until the migration's transaction commits).
LOCK TABLE "jobs" IN SHARE ROW EXCLUSIVE MODE;
--> statement-breakpoint
CREATE FUNCTION "job_owner_totals_apply"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO "job_owner_totals" ("owner_id", "model_id", "archived", "n")
      SELECT "owner_id", "model_id", "archived", count(*) FROM "new_rows"
      WHERE NOT "deleted" AND "source" NOT IN ('SANDBOX', 'IDENTIFICATION')
      GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
      ON CONFLICT ("owner_id", "model_id", "archived") DO UPDATE SET "n" = "job_owner_totals"."n" + excluded."n";
  ELSIF TG_OP = 'DELETE' THEN
    UPDATE "job_owner_totals" t SET "n" = t."n" - d.n
      FROM (SELECT "owner_id", "model_id", "archived", count(*) AS n FROM "old_rows"
            WHERE NOT "deleted" AND "source" NOT IN ('SANDBOX', 'IDENTIFICATION') GROUP BY 1, 2, 3) d
      WHERE t."owner_id" = d."owner_id" AND t."model_id" = d."model_id" AND t."archived" = d."archived";
    DELETE FROM "job_owner_totals" WHERE "n" <= 0 AND "owner_id" IN (SELECT DISTINCT "owner_id" FROM "old_rows");
  ELSE
    INSERT INTO "job_owner_totals" ("owner_id", "model_id", "archived", "n")
      SELECT o, m, a, sum(d) FROM (
        SELECT "owner_id" AS o, "model_id" AS m, "archived" AS a, -1 AS d FROM "old_rows"
          WHERE NOT "deleted" AND "source" NOT IN ('SANDBOX', 'IDENTIFICATION')
        UNION ALL
        SELECT "owner_id", "model_id", "archived", 1 FROM "new_rows"
          WHERE NOT "deleted" AND "source" NOT IN ('SANDBOX', 'IDENTIFICATION')
      ) x GROUP BY 1, 2, 3 HAVING sum(d) <> 0 ORDER BY 1, 2, 3
      ON CONFLICT ("owner_id", "model_id", "archived") DO UPDATE SET "n" = "job_owner_totals"."n" + excluded."n";
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION "job_owner_totals_truncate"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "job_owner_totals";
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "jobs_owner_totals_insert" AFTER INSERT ON "jobs" REFERENCING NEW TABLE AS "new_rows"
  FOR EACH STATEMENT EXECUTE FUNCTION "job_owner_totals_apply"();
--> statement-breakpoint
CREATE TRIGGER "jobs_owner_totals_delete" AFTER DELETE ON "jobs" REFERENCING OLD TABLE AS "old_rows"
  FOR EACH STATEMENT EXECUTE FUNCTION "job_owner_totals_apply"();
--> statement-breakpoint
CREATE TRIGGER "jobs_owner_totals_update" AFTER UPDATE ON "jobs" REFERENCING OLD TABLE AS "old_rows" NEW TABLE AS "new_rows"
  FOR EACH STATEMENT EXECUTE FUNCTION "job_owner_totals_apply"();
--> statement-breakpoint
CREATE TRIGGER "jobs_owner_totals_truncate" AFTER TRUNCATE ON "jobs" FOR EACH STATEMENT
  EXECUTE FUNCTION "job_owner_totals_truncate"();
--> statement-breakpoint
INSERT INTO "job_owner_totals" ("owner_id", "model_id", "archived", "n")
  SELECT "owner_id", "model_id", "archived", count(*) FROM "jobs"
  WHERE NOT "deleted" AND "source" NOT IN ('SANDBOX', 'IDENTIFICATION') GROUP BY 1, 2, 3;
