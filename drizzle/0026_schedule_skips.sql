ALTER TABLE `schedules` ADD `skipped_runs` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `schedules` ADD `last_skipped_for` integer;