-- task_units rebuilt WITHOUT ROWID (docs/costs.md, "D1 rows written"): with a composite primary key, SQLite kept the
-- key in an index beside the table, and D1 counts that index as a second row written for every unit planned. Same
-- columns, defaults and foreign key; every row copied. No table references task_units.
PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_task_units` (
	`job_id` text NOT NULL,
	`unit_index` integer NOT NULL,
	`target_id` text,
	`target_attributes` text,
	`segment_start` text,
	`segment_end` text,
	`status` text DEFAULT 'QUEUED' NOT NULL,
	`record_count` integer,
	`attempts` integer DEFAULT 0 NOT NULL,
	`updated_at` integer NOT NULL,
	`result_id` text,
	`csv_offset` integer,
	PRIMARY KEY(`job_id`, `unit_index`),
	FOREIGN KEY (`job_id`) REFERENCES `jobs`(`id`) ON UPDATE no action ON DELETE no action
) WITHOUT ROWID;
--> statement-breakpoint
INSERT INTO `__new_task_units`("job_id", "unit_index", "target_id", "target_attributes", "segment_start", "segment_end", "status", "record_count", "attempts", "updated_at", "result_id", "csv_offset") SELECT "job_id", "unit_index", "target_id", "target_attributes", "segment_start", "segment_end", "status", "record_count", "attempts", "updated_at", "result_id", "csv_offset" FROM `task_units`;--> statement-breakpoint
DROP TABLE `task_units`;--> statement-breakpoint
ALTER TABLE `__new_task_units` RENAME TO `task_units`;--> statement-breakpoint
PRAGMA foreign_keys=ON;
