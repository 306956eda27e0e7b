ALTER TABLE `task_units` ADD `result_unit` integer;--> statement-breakpoint
ALTER TABLE `task_units` ADD `result_offset` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `task_units` ADD `result_end` integer;