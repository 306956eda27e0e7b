CREATE TABLE `registration_sessions` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL,
	`token_hash` text NOT NULL,
	`status` text DEFAULT 'PENDING' NOT NULL,
	`options` text NOT NULL,
	`origin_allowlist` text NOT NULL,
	`client_reference_id` text,
	`business_number` text,
	`attempts` integer DEFAULT 0 NOT NULL,
	`credential_id` text,
	`created_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	`finished_at` integer,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `registration_sessions_token` ON `registration_sessions` (`token_hash`);--> statement-breakpoint
CREATE INDEX `registration_sessions_workspace` ON `registration_sessions` (`workspace_id`,`created_at`);