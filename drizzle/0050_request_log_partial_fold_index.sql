DROP INDEX `request_logs_collapse_key_unique`;--> statement-breakpoint
CREATE UNIQUE INDEX `request_logs_collapse_key` ON `request_logs` (`collapse_key`) WHERE collapse_key IS NOT NULL;