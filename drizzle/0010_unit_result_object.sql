ALTER TABLE `task_units` ADD `result_id` text;--> statement-breakpoint
ALTER TABLE `task_units` ADD `csv_offset` integer;