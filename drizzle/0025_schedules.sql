CREATE TABLE `schedules` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL,
	`provider_code` text NOT NULL,
	`schema` text NOT NULL,
	`credential_id` text,
	`cron` text NOT NULL,
	`params` text NOT NULL,
	`last_days` integer,
	`incremental` integer DEFAULT false NOT NULL,
	`status` text NOT NULL,
	`paused_reason` text,
	`next_run_at` integer,
	`consecutive_failures` integer DEFAULT 0 NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `schedules_workspace` ON `schedules` (`workspace_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `schedules_due` ON `schedules` (`status`,`next_run_at`);--> statement-breakpoint
ALTER TABLE `jobs` ADD `schedule_id` text;--> statement-breakpoint
ALTER TABLE `jobs` ADD `scheduled_for` integer;--> statement-breakpoint
CREATE UNIQUE INDEX `jobs_schedule_occurrence` ON `jobs` (`schedule_id`,`scheduled_for`) WHERE schedule_id IS NOT NULL;