CREATE TABLE `request_log_days` (
	`workspace_id` text NOT NULL,
	`day` text NOT NULL,
	`bytes` integer NOT NULL,
	`rows` integer NOT NULL,
	`omitted` integer NOT NULL,
	PRIMARY KEY(`workspace_id`, `day`)
);
--> statement-breakpoint
CREATE INDEX `request_log_days_day` ON `request_log_days` (`day`);--> statement-breakpoint
ALTER TABLE `request_logs` ADD `collapse_key` text;--> statement-breakpoint
ALTER TABLE `request_logs` ADD `repeat_count` integer DEFAULT 1 NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX `request_logs_collapse_key_unique` ON `request_logs` (`collapse_key`);--> statement-breakpoint
-- Rows written before bodies were kept only for the routes that allow it and card numbers were masked wherever they
-- stand (docs/request-logs.md): no body written before stays, nor a query or an error envelope holding a run of 12
-- digits or of three groups of four. The rows stay, with their method, path, status and times.
UPDATE `request_logs` SET `body` = NULL WHERE `body` IS NOT NULL;--> statement-breakpoint
UPDATE `request_logs` SET `query` = NULL WHERE `query` GLOB '*[0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9]*' OR `query` GLOB '*[0-9][0-9][0-9][0-9][ -][0-9][0-9][0-9][0-9][ -][0-9][0-9][0-9][0-9]*';--> statement-breakpoint
UPDATE `request_logs` SET `error_body` = NULL WHERE `error_body` GLOB '*[0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9]*' OR `error_body` GLOB '*[0-9][0-9][0-9][0-9][ -][0-9][0-9][0-9][0-9][ -][0-9][0-9][0-9][0-9]*';
