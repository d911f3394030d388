CREATE TABLE "storage_quotas" (
	"license_type" "license_type" PRIMARY KEY NOT NULL,
	"quota_mb" integer,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
