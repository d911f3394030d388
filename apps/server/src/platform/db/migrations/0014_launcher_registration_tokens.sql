CREATE TABLE "launcher_registration_tokens" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"node_id" uuid NOT NULL,
	"name" text NOT NULL,
	"token_hash" text NOT NULL,
	"token_prefix" text NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_used_at" timestamp with time zone,
	CONSTRAINT "launcher_registration_tokens_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
CREATE TABLE "launcher_registrations" (
	"executor_id" uuid PRIMARY KEY NOT NULL,
	"token_id" uuid NOT NULL,
	"host" text,
	"slots" integer,
	"registered_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "launcher_registration_tokens" ADD CONSTRAINT "launcher_registration_tokens_node_id_nodes_id_fk" FOREIGN KEY ("node_id") REFERENCES "public"."nodes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "launcher_registration_tokens" ADD CONSTRAINT "launcher_registration_tokens_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "launcher_registrations" ADD CONSTRAINT "launcher_registrations_executor_id_executors_id_fk" FOREIGN KEY ("executor_id") REFERENCES "public"."executors"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "launcher_registrations" ADD CONSTRAINT "launcher_registrations_token_id_launcher_registration_tokens_id_fk" FOREIGN KEY ("token_id") REFERENCES "public"."launcher_registration_tokens"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "launcher_registration_tokens_node_idx" ON "launcher_registration_tokens" USING btree ("node_id");--> statement-breakpoint
CREATE INDEX "launcher_registrations_token_idx" ON "launcher_registrations" USING btree ("token_id");