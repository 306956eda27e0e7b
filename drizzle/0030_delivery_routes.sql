CREATE TABLE `delivery_routes` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL,
	`name` text NOT NULL,
	`kind` text NOT NULL,
	`config` text NOT NULL,
	`sealed_secret` text NOT NULL,
	`created_at` integer NOT NULL,
	`deleted_at` integer,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `delivery_routes_workspace` ON `delivery_routes` (`workspace_id`,`created_at`,`id`);--> statement-breakpoint
CREATE TABLE `route_deliveries` (
	`id` text PRIMARY KEY NOT NULL,
	`route_id` text NOT NULL,
	`job_id` text NOT NULL,
	`status` text NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`last_error` text,
	`files` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `route_deliveries_one_per_job` ON `route_deliveries` (`route_id`,`job_id`);--> statement-breakpoint
CREATE INDEX `route_deliveries_route` ON `route_deliveries` (`route_id`,`created_at`,`id`);--> statement-breakpoint
ALTER TABLE `jobs` ADD `delivery_route_id` text;--> statement-breakpoint
ALTER TABLE `schedules` ADD `delivery_route_id` text;