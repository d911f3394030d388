CREATE INDEX "images_original_filename_idx" ON "images" USING btree ("orginal_filename");--> statement-breakpoint
CREATE INDEX "jobs_owner_created_idx" ON "jobs" USING btree ("owner_id","created_at");--> statement-breakpoint
CREATE INDEX "jobs_started_idx" ON "jobs" USING btree ("started_at" NULLS FIRST,"created_at","id");--> statement-breakpoint
CREATE INDEX "jobs_finished_idx" ON "jobs" USING btree ("finished_at" NULLS FIRST,"created_at","id");--> statement-breakpoint
CREATE INDEX "jobs_duration_idx" ON "jobs" USING btree ("duration_ms" NULLS FIRST,"created_at","id");--> statement-breakpoint
CREATE INDEX "jobs_wait_idx" ON "jobs" USING btree ("wait_ms" NULLS FIRST,"created_at","id");--> statement-breakpoint
CREATE INDEX "jobs_created_id_idx" ON "jobs" USING btree ("created_at","id","deleted");--> statement-breakpoint
CREATE INDEX "jobs_model_version_idx" ON "jobs" USING btree ("model_version","created_at");