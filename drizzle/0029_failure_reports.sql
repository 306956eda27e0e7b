CREATE TABLE `failure_reports` (
	`id` text PRIMARY KEY NOT NULL,
	`provider_code` text NOT NULL,
	`surprise` text NOT NULL,
	`step` text NOT NULL,
	`adapter_version` text NOT NULL,
	`detail` text NOT NULL,
	`url` text,
	`job_id` text NOT NULL,
	`occurrences` integer NOT NULL,
	`created_at` integer NOT NULL,
	`last_seen_at` integer NOT NULL,
	`page_key` text,
	`expires_at` integer NOT NULL,
	`closed_at` integer,
	`closed_by` text,
	`fix_ref` text
);
--> statement-breakpoint
CREATE UNIQUE INDEX `failure_reports_one_open` ON `failure_reports` (`provider_code`,`surprise`,`step`,`adapter_version`) WHERE closed_at IS NULL;--> statement-breakpoint
CREATE INDEX `failure_reports_created` ON `failure_reports` (`created_at`);--> statement-breakpoint
CREATE INDEX `failure_reports_expires` ON `failure_reports` (`expires_at`);