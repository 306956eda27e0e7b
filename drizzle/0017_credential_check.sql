ALTER TABLE `credentials` ADD `check_state` text;--> statement-breakpoint
ALTER TABLE `credentials` ADD `check_id` text;--> statement-breakpoint
ALTER TABLE `credentials` ADD `check_error` text;--> statement-breakpoint
ALTER TABLE `credentials` ADD `checked_at` integer;