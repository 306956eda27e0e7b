ALTER TABLE `credentials` ADD `superseded_by` text;--> statement-breakpoint
ALTER TABLE `credentials` ADD `superseded_at` integer;