CREATE TYPE "public"."access_key_scope" AS ENUM('READ_ONLY', 'READ_WRITE');--> statement-breakpoint
ALTER TABLE "access_keys" ADD COLUMN "scope" "access_key_scope" DEFAULT 'READ_WRITE' NOT NULL;--> statement-breakpoint
ALTER TABLE "access_keys" ADD COLUMN "rate_per_minute" integer DEFAULT 600 NOT NULL;--> statement-breakpoint
ALTER TABLE "access_keys" ADD COLUMN "request_count" integer DEFAULT 0 NOT NULL;