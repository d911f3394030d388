CREATE TYPE "public"."trained_version_status" AS ENUM('CANDIDATE', 'PROMOTED', 'RETIRED');--> statement-breakpoint
CREATE TYPE "public"."training_run_status" AS ENUM('QUEUED', 'RUNNING', 'FINISHED', 'FAILED', 'CANCELLED');--> statement-breakpoint
CREATE TABLE "model_version_artefacts" (
	"model_id" uuid NOT NULL,
	"version" text NOT NULL,
	"run_id" uuid,
	"status" "trained_version_status" DEFAULT 'CANDIDATE' NOT NULL,
	"network_key" text NOT NULL,
	"network_sha256" text NOT NULL,
	"network_size" bigint NOT NULL,
	"card" jsonb NOT NULL,
	"validation" jsonb NOT NULL,
	"previous_version" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"promoted_at" timestamp with time zone,
	CONSTRAINT "model_version_artefacts_model_id_version_pk" PRIMARY KEY("model_id","version")
);
--> statement-breakpoint
CREATE TABLE "training_runs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"model_id" uuid NOT NULL,
	"base_version" text NOT NULL,
	"candidate_version" text NOT NULL,
	"status" "training_run_status" DEFAULT 'QUEUED' NOT NULL,
	"image_ids" jsonb NOT NULL,
	"holdout_image_ids" jsonb NOT NULL,
	"holdout_share" double precision NOT NULL,
	"steps" integer NOT NULL,
	"seed" integer NOT NULL,
	"filter" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"progress" jsonb,
	"launcher_id" uuid,
	"lease_until" timestamp with time zone,
	"heartbeat_at" timestamp with time zone,
	"attempt" integer DEFAULT 0 NOT NULL,
	"error" jsonb,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "customization_groups" ADD COLUMN "model_version" text;--> statement-breakpoint
ALTER TABLE "model_version_artefacts" ADD CONSTRAINT "model_version_artefacts_model_id_compute_models_id_fk" FOREIGN KEY ("model_id") REFERENCES "public"."compute_models"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "model_version_artefacts" ADD CONSTRAINT "model_version_artefacts_run_id_training_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."training_runs"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "training_runs" ADD CONSTRAINT "training_runs_model_id_compute_models_id_fk" FOREIGN KEY ("model_id") REFERENCES "public"."compute_models"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "training_runs" ADD CONSTRAINT "training_runs_launcher_id_executors_id_fk" FOREIGN KEY ("launcher_id") REFERENCES "public"."executors"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "training_runs" ADD CONSTRAINT "training_runs_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "model_version_artefacts_sha_idx" ON "model_version_artefacts" USING btree ("network_sha256");--> statement-breakpoint
CREATE UNIQUE INDEX "training_runs_candidate_unique" ON "training_runs" USING btree ("model_id","candidate_version");--> statement-breakpoint
CREATE INDEX "training_runs_model_idx" ON "training_runs" USING btree ("model_id","created_at");--> statement-breakpoint
CREATE INDEX "training_runs_queue_idx" ON "training_runs" USING btree ("created_at") WHERE status = 'QUEUED';