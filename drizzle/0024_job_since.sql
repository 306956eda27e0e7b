ALTER TABLE `jobs` ADD `since_job_id` text;--> statement-breakpoint
ALTER TABLE `jobs` ADD `changes_result_id` text;--> statement-breakpoint
ALTER TABLE `jobs` ADD `changes_csv_offset` integer;