-- The session cache (platform/auth/session-cache.ts) keeps what the guard reads per request (session, user,
-- privileges, group administration) for a few seconds. Every change of those rows, by any replica, a job or an
-- SQL console, tells every server through NOTIFY "lamella_auth" with the user's id ('*' after a TRUNCATE), and
-- each server drops that user's entries. NOTIFY is sent at commit; identical payloads of one transaction are sent once.
CREATE FUNCTION "lamella_auth_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_LEVEL = 'STATEMENT' THEN
    PERFORM pg_notify('lamella_auth', '*');
    RETURN NULL;
  END IF;
  IF TG_TABLE_NAME = 'users' THEN
    PERFORM pg_notify('lamella_auth', OLD."id"::text);
  ELSIF TG_TABLE_NAME = 'groups' THEN
    IF TG_OP <> 'INSERT' AND OLD."admin_id" IS NOT NULL THEN PERFORM pg_notify('lamella_auth', OLD."admin_id"::text); END IF;
    IF TG_OP <> 'DELETE' AND NEW."admin_id" IS NOT NULL THEN PERFORM pg_notify('lamella_auth', NEW."admin_id"::text); END IF;
  ELSE
    IF TG_OP <> 'INSERT' THEN PERFORM pg_notify('lamella_auth', OLD."user_id"::text); END IF;
    IF TG_OP <> 'DELETE' THEN PERFORM pg_notify('lamella_auth', NEW."user_id"::text); END IF;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "users_auth_changed" AFTER UPDATE OR DELETE ON "users" FOR EACH ROW EXECUTE FUNCTION "lamella_auth_changed"();
--> statement-breakpoint
CREATE TRIGGER "sessions_auth_changed" AFTER UPDATE OR DELETE ON "sessions" FOR EACH ROW EXECUTE FUNCTION "lamella_auth_changed"();
--> statement-breakpoint
CREATE TRIGGER "privileges_auth_changed" AFTER INSERT OR UPDATE OR DELETE ON "privileges" FOR EACH ROW EXECUTE FUNCTION "lamella_auth_changed"();
--> statement-breakpoint
CREATE TRIGGER "groups_auth_changed" AFTER INSERT OR UPDATE OR DELETE ON "groups" FOR EACH ROW EXECUTE FUNCTION "lamella_auth_changed"();
--> statement-breakpoint
CREATE TRIGGER "users_auth_truncated" AFTER TRUNCATE ON "users" FOR EACH STATEMENT EXECUTE FUNCTION "lamella_auth_changed"();
--> statement-breakpoint
CREATE TRIGGER "sessions_auth_truncated" AFTER TRUNCATE ON "sessions" FOR EACH STATEMENT EXECUTE FUNCTION "lamella_auth_changed"();
--> statement-breakpoint
CREATE TRIGGER "privileges_auth_truncated" AFTER TRUNCATE ON "privileges" FOR EACH STATEMENT EXECUTE FUNCTION "lamella_auth_changed"();
--> statement-breakpoint
CREATE TRIGGER "groups_auth_truncated" AFTER TRUNCATE ON "groups" FOR EACH STATEMENT EXECUTE FUNCTION "lamella_auth_changed"();
