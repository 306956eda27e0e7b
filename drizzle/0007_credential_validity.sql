ALTER TABLE `credentials` ADD `invalid_reason` text;--> statement-breakpoint
ALTER TABLE `credentials` ADD `invalidated_at` integer;