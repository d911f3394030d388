-- The answered job lists (platform/db/change-cache.ts: GET /jobs per user, the back-office jobs list) are kept
-- until what they show changes. Every change, by any replica, a job or an SQL console, tells every server through
-- NOTIFY "lamella_jobs" with the id of the user whose list changed, or '*' when every list may have changed
-- (models, customization groups, projects, back-office ratings, truncations). Job writes are statement-level with
-- transition tables, so a bulk insert or update sends one notification per owner, not per row.
CREATE FUNCTION "lamella_jobs_owners_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM pg_notify('lamella_jobs', o::text) FROM (SELECT DISTINCT "owner_id" AS o FROM "new_rows") x;
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM pg_notify('lamella_jobs', o::text) FROM (SELECT DISTINCT "owner_id" AS o FROM "old_rows") x;
  ELSE
    PERFORM pg_notify('lamella_jobs', o::text)
      FROM (SELECT "owner_id" AS o FROM "new_rows" UNION SELECT "owner_id" FROM "old_rows") x;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "jobs_list_insert" AFTER INSERT ON "jobs" REFERENCING NEW TABLE AS "new_rows"
  FOR EACH STATEMENT EXECUTE FUNCTION "lamella_jobs_owners_changed"();
--> statement-breakpoint
CREATE TRIGGER "jobs_list_update" AFTER UPDATE ON "jobs" REFERENCING OLD TABLE AS "old_rows" NEW TABLE AS "new_rows"
  FOR EACH STATEMENT EXECUTE FUNCTION "lamella_jobs_owners_changed"();
--> statement-breakpoint
CREATE TRIGGER "jobs_list_delete" AFTER DELETE ON "jobs" REFERENCING OLD TABLE AS "old_rows"
  FOR EACH STATEMENT EXECUTE FUNCTION "lamella_jobs_owners_changed"();
--> statement-breakpoint
-- A mask or a rating of a job: the job's owner, and the mask's or the rating's own user; an image: its owner.
CREATE FUNCTION "lamella_job_part_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  job uuid;
  person uuid;
BEGIN
  FOR i IN 1..2 LOOP
    CONTINUE WHEN (i = 1 AND TG_OP = 'INSERT') OR (i = 2 AND TG_OP = 'DELETE');
    IF TG_TABLE_NAME = 'images' THEN
      PERFORM pg_notify('lamella_jobs', (CASE WHEN i = 1 THEN OLD."owner_id" ELSE NEW."owner_id" END)::text);
      CONTINUE;
    ELSIF TG_TABLE_NAME = 'masks' THEN
      job := CASE WHEN i = 1 THEN OLD."job_id" ELSE NEW."job_id" END;
      person := CASE WHEN i = 1 THEN OLD."owner_id" ELSE NEW."owner_id" END;
    ELSE
      job := CASE WHEN i = 1 THEN OLD."job_id" ELSE NEW."job_id" END;
      person := CASE WHEN i = 1 THEN OLD."user_id" ELSE NEW."user_id" END;
    END IF;
    IF person IS NOT NULL THEN PERFORM pg_notify('lamella_jobs', person::text); END IF;
    IF job IS NOT NULL THEN PERFORM pg_notify('lamella_jobs', "owner_id"::text) FROM "jobs" WHERE "id" = job; END IF;
  END LOOP;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "masks_list_changed" AFTER INSERT OR UPDATE OR DELETE ON "masks" FOR EACH ROW EXECUTE FUNCTION "lamella_job_part_changed"();
--> statement-breakpoint
CREATE TRIGGER "user_feedback_list_changed" AFTER INSERT OR UPDATE OR DELETE ON "user_feedback" FOR EACH ROW EXECUTE FUNCTION "lamella_job_part_changed"();
--> statement-breakpoint
CREATE TRIGGER "images_list_changed" AFTER UPDATE OR DELETE ON "images" FOR EACH ROW EXECUTE FUNCTION "lamella_job_part_changed"();
--> statement-breakpoint
-- What every list may show.
CREATE FUNCTION "lamella_all_lists_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('lamella_jobs', '*');
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "compute_models_lists_changed" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "compute_models" FOR EACH STATEMENT EXECUTE FUNCTION "lamella_all_lists_changed"();
--> statement-breakpoint
CREATE TRIGGER "customization_groups_lists_changed" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "customization_groups" FOR EACH STATEMENT EXECUTE FUNCTION "lamella_all_lists_changed"();
--> statement-breakpoint
CREATE TRIGGER "projects_lists_changed" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "projects" FOR EACH STATEMENT EXECUTE FUNCTION "lamella_all_lists_changed"();
--> statement-breakpoint
CREATE TRIGGER "admin_feedback_lists_changed" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "admin_feedback" FOR EACH STATEMENT EXECUTE FUNCTION "lamella_all_lists_changed"();
--> statement-breakpoint
CREATE TRIGGER "jobs_lists_truncated" AFTER TRUNCATE ON "jobs" FOR EACH STATEMENT EXECUTE FUNCTION "lamella_all_lists_changed"();
--> statement-breakpoint
CREATE TRIGGER "masks_lists_truncated" AFTER TRUNCATE ON "masks" FOR EACH STATEMENT EXECUTE FUNCTION "lamella_all_lists_changed"();
--> statement-breakpoint
CREATE TRIGGER "user_feedback_lists_truncated" AFTER TRUNCATE ON "user_feedback" FOR EACH STATEMENT EXECUTE FUNCTION "lamella_all_lists_changed"();
--> statement-breakpoint
CREATE TRIGGER "images_lists_truncated" AFTER TRUNCATE ON "images" FOR EACH STATEMENT EXECUTE FUNCTION "lamella_all_lists_changed"();
