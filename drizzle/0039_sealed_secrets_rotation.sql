PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_delivery_routes` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL,
	`name` text NOT NULL,
	`kind` text NOT NULL,
	`config` text NOT NULL,
	`sealed_secret` text,
	`created_at` integer NOT NULL,
	`deleted_at` integer,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
INSERT INTO `__new_delivery_routes`("id", "workspace_id", "name", "kind", "config", "sealed_secret", "created_at", "deleted_at") SELECT "id", "workspace_id", "name", "kind", "config", "sealed_secret", "created_at", "deleted_at" FROM `delivery_routes`;--> statement-breakpoint
DROP TABLE `delivery_routes`;--> statement-breakpoint
ALTER TABLE `__new_delivery_routes` RENAME TO `delivery_routes`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
CREATE INDEX `delivery_routes_workspace` ON `delivery_routes` (`workspace_id`,`created_at`,`id`);--> statement-breakpoint
ALTER TABLE `failure_reports` ADD `page_key_version` integer;--> statement-breakpoint
-- Routes deleted before deletion erased their secret (domain/deliveries/store.ts deleteRoute): erased now.
UPDATE `delivery_routes` SET `sealed_secret` = NULL WHERE `deleted_at` IS NOT NULL;