ALTER TABLE `task_units` ADD `result_unit` integer;--> statement-breakpoint
ALTER TABLE `task_units` ADD `json_offset` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `task_units` ADD `json_end` integer;--> statement-breakpoint
ALTER TABLE `task_units` ADD `csv_end` integer;