CREATE TABLE "stored_objects" (
	"key" text PRIMARY KEY NOT NULL,
	"owner_id" uuid,
	"bytes" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "deletion_due_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "role_before_deletion" "role";--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "deletion_requested_by_id" uuid;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "blocked_by_admin" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "compute_models" ADD COLUMN "archived_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "stored_objects_owner_idx" ON "stored_objects" USING btree ("owner_id");--> statement-breakpoint
CREATE INDEX "users_deletion_due_idx" ON "users" USING btree ("deletion_due_at");