CREATE TABLE `request_logs` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL,
	`api_key_id` text NOT NULL,
	`api_key_prefix` text NOT NULL,
	`method` text NOT NULL,
	`path` text NOT NULL,
	`status` integer NOT NULL,
	`error_code` text,
	`latency_ms` integer NOT NULL,
	`idempotency_key` text,
	`query` text,
	`body` text,
	`error_body` text,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `request_logs_workspace` ON `request_logs` (`workspace_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `request_logs_created` ON `request_logs` (`created_at`);--> statement-breakpoint
ALTER TABLE `credentials` ADD `consent_record` text;--> statement-breakpoint
ALTER TABLE `credentials` ADD `revoked_reason` text;--> statement-breakpoint
ALTER TABLE `jobs` ADD `results_expire_at` integer;--> statement-breakpoint
ALTER TABLE `jobs` ADD `results_deleted_reason` text;--> statement-breakpoint
ALTER TABLE `jobs` ADD `results_purged_at` integer;--> statement-breakpoint
CREATE INDEX `jobs_results_due` ON `jobs` (`results_expire_at`) WHERE results_purged_at IS NULL AND results_expire_at IS NOT NULL;--> statement-breakpoint
ALTER TABLE `workspaces` ADD `results_retention_days` integer;--> statement-breakpoint
ALTER TABLE `workspaces` ADD `consent_days` integer;