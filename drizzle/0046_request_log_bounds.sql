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
-- stand (docs/request-logs.md): none of what such a row kept of a request's body, query or error envelope stays, as a
-- card number could be in any of them. The rows stay, with their method, path, status, code and times.
UPDATE `request_logs` SET `body` = NULL, `query` = NULL, `error_body` = NULL WHERE `body` IS NOT NULL OR `query` IS NOT NULL OR `error_body` IS NOT NULL;
