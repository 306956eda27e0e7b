CREATE TABLE `connections` (
	`id` text PRIMARY KEY NOT NULL,
	`partner_workspace_id` text NOT NULL,
	`business_number` text NOT NULL,
	`workspace_id` text NOT NULL,
	`status` text DEFAULT 'ACTIVE' NOT NULL,
	`created_at` integer NOT NULL,
	`revoked_at` integer,
	FOREIGN KEY (`partner_workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `connections_one_active` ON `connections` (`partner_workspace_id`,`business_number`) WHERE status = 'ACTIVE';--> statement-breakpoint
CREATE INDEX `connections_partner` ON `connections` (`partner_workspace_id`,`business_number`);