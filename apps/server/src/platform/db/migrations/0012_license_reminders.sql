CREATE TABLE "license_reminders" (
	"license_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"reminded_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "license_reminders_license_id_kind_pk" PRIMARY KEY("license_id","kind")
);
--> statement-breakpoint
ALTER TABLE "license_reminders" ADD CONSTRAINT "license_reminders_license_id_licenses_id_fk" FOREIGN KEY ("license_id") REFERENCES "public"."licenses"("id") ON DELETE cascade ON UPDATE no action;