CREATE TABLE `partner_open_banking_keys` (
	`partner_workspace_id` text PRIMARY KEY NOT NULL,
	`client_id` text NOT NULL,
	`client_use_code` text NOT NULL,
	`sealed_secret` text NOT NULL,
	`set_at` integer NOT NULL,
	FOREIGN KEY (`partner_workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE no action
);
