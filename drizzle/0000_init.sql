CREATE TABLE `api_keys` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL,
	`name` text NOT NULL,
	`prefix` text NOT NULL,
	`hash` text NOT NULL,
	`created_at` integer NOT NULL,
	`expires_at` integer,
	`revoked_at` integer,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `api_keys_hash` ON `api_keys` (`hash`);--> statement-breakpoint
CREATE INDEX `api_keys_workspace` ON `api_keys` (`workspace_id`);--> statement-breakpoint
CREATE TABLE `credentials` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL,
	`provider_code` text NOT NULL,
	`auth_method` text NOT NULL,
	`status` text DEFAULT 'ACTIVE' NOT NULL,
	`sealed` text NOT NULL,
	`label` text,
	`created_at` integer NOT NULL,
	`deleted_at` integer,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `credentials_one_per_provider` ON `credentials` (`workspace_id`,`provider_code`) WHERE status = 'ACTIVE';--> statement-breakpoint
CREATE TABLE `idempotency_keys` (
	`workspace_id` text NOT NULL,
	`key` text NOT NULL,
	`request_hash` text NOT NULL,
	`job_id` text NOT NULL,
	`created_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	PRIMARY KEY(`workspace_id`, `key`)
);
--> statement-breakpoint
CREATE INDEX `idempotency_expires` ON `idempotency_keys` (`expires_at`);--> statement-breakpoint
CREATE TABLE `jobs` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL,
	`provider_code` text NOT NULL,
	`schema` text NOT NULL,
	`params` text NOT NULL,
	`status` text NOT NULL,
	`credential_id` text,
	`completed_task_count` integer DEFAULT 0 NOT NULL,
	`total_task_count` integer DEFAULT 0 NOT NULL,
	`record_count` integer DEFAULT 0 NOT NULL,
	`error` text,
	`attempt` integer DEFAULT 0 NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	`deadline_at` integer NOT NULL,
	`finished_at` integer,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `jobs_workspace_created` ON `jobs` (`workspace_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `jobs_status_deadline` ON `jobs` (`status`,`deadline_at`);--> statement-breakpoint
CREATE TABLE `task_units` (
	`job_id` text NOT NULL,
	`unit_index` integer NOT NULL,
	`target_id` text,
	`target_attributes` text,
	`segment_start` text,
	`segment_end` text,
	`status` text DEFAULT 'QUEUED' NOT NULL,
	`record_count` integer,
	`attempts` integer DEFAULT 0 NOT NULL,
	`updated_at` integer NOT NULL,
	PRIMARY KEY(`job_id`, `unit_index`),
	FOREIGN KEY (`job_id`) REFERENCES `jobs`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `workspaces` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`business_number` text,
	`plan` text DEFAULT 'FREE' NOT NULL,
	`monthly_job_cap` integer,
	`is_partner` integer DEFAULT false NOT NULL,
	`created_at` integer NOT NULL
);
