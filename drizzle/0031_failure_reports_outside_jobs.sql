PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_failure_reports` (
	`id` text PRIMARY KEY NOT NULL,
	`provider_code` text NOT NULL,
	`surprise` text NOT NULL,
	`step` text NOT NULL,
	`adapter_version` text NOT NULL,
	`detail` text NOT NULL,
	`url` text,
	`job_id` text,
	`request_id` text,
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
INSERT INTO `__new_failure_reports`("id", "provider_code", "surprise", "step", "adapter_version", "detail", "url", "job_id", "request_id", "occurrences", "created_at", "last_seen_at", "page_key", "expires_at", "closed_at", "closed_by", "fix_ref") SELECT "id", "provider_code", "surprise", "step", "adapter_version", "detail", "url", "job_id", NULL, "occurrences", "created_at", "last_seen_at", "page_key", "expires_at", "closed_at", "closed_by", "fix_ref" FROM `failure_reports`;--> statement-breakpoint
DROP TABLE `failure_reports`;--> statement-breakpoint
ALTER TABLE `__new_failure_reports` RENAME TO `failure_reports`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
CREATE UNIQUE INDEX `failure_reports_one_open` ON `failure_reports` (`provider_code`,`surprise`,`step`,`adapter_version`) WHERE closed_at IS NULL;--> statement-breakpoint
CREATE INDEX `failure_reports_created` ON `failure_reports` (`created_at`);--> statement-breakpoint
CREATE INDEX `failure_reports_expires` ON `failure_reports` (`expires_at`);