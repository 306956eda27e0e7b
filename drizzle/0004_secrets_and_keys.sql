PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_credentials` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL,
	`provider_code` text NOT NULL,
	`auth_method` text NOT NULL,
	`status` text DEFAULT 'ACTIVE' NOT NULL,
	`sealed` text,
	`label` text,
	`created_at` integer NOT NULL,
	`deleted_at` integer,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
INSERT INTO `__new_credentials`("id", "workspace_id", "provider_code", "auth_method", "status", "sealed", "label", "created_at", "deleted_at") SELECT "id", "workspace_id", "provider_code", "auth_method", "status", "sealed", "label", "created_at", "deleted_at" FROM `credentials`;--> statement-breakpoint
DROP TABLE `credentials`;--> statement-breakpoint
ALTER TABLE `__new_credentials` RENAME TO `credentials`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
CREATE UNIQUE INDEX `credentials_one_per_provider` ON `credentials` (`workspace_id`,`provider_code`) WHERE status = 'ACTIVE';--> statement-breakpoint
ALTER TABLE `api_keys` ADD `can_manage_keys` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `jobs` ADD `billing_workspace_id` text;--> statement-breakpoint
CREATE INDEX `jobs_billing_created` ON `jobs` (`billing_workspace_id`,`created_at`);--> statement-breakpoint
ALTER TABLE `workspaces` ADD `billing_workspace_id` text;