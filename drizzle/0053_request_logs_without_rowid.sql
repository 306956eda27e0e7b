-- request_logs rebuilt WITHOUT ROWID and without its created_at index (docs/request-logs.md, "Retention"; docs/costs.md,
-- stop 68): D1 counts every index an insert touches as a row written, and the table kept its text primary key in an
-- index beside itself; the purge now walks request_logs_workspace, a workspace at a time, from its days' counters.
-- drizzle cannot declare WITHOUT ROWID, so this is hand-written after drizzle's `DROP INDEX`. Same columns, order and
-- defaults; every row copied. No table references request_logs.
CREATE TABLE `__new_request_logs` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL,
	`api_key_id` text NOT NULL,
	`api_key_prefix` text NOT NULL,
	`method` text NOT NULL,
	`path` text NOT NULL,
	`status` integer NOT NULL,
	`error_code` text,
	`latency_ms` integer NOT NULL,
	`idempotency_key` text,
	`query` text,
	`body` text,
	`error_body` text,
	`created_at` integer NOT NULL,
	`collapse_key` text,
	`repeat_count` integer DEFAULT 1 NOT NULL
) WITHOUT ROWID;
--> statement-breakpoint
INSERT INTO `__new_request_logs`("id", "workspace_id", "api_key_id", "api_key_prefix", "method", "path", "status", "error_code", "latency_ms", "idempotency_key", "query", "body", "error_body", "created_at", "collapse_key", "repeat_count") SELECT "id", "workspace_id", "api_key_id", "api_key_prefix", "method", "path", "status", "error_code", "latency_ms", "idempotency_key", "query", "body", "error_body", "created_at", "collapse_key", "repeat_count" FROM `request_logs`;--> statement-breakpoint
-- The purge finds a workspace's old rows through its days' counters, so every row must have its day's: rows the
-- consumer wrote without one (a rate limit's folds are not charged to a day, and rows written before the budget) get
-- an empty counter for their KST day (contracts/korean-time.ts kstDate: UTC+9). `WHERE true` lets SQLite read the
-- ON CONFLICT as the insert's, not the SELECT's join.
INSERT INTO `request_log_days`("workspace_id", "day", "bytes", "rows", "omitted") SELECT DISTINCT "workspace_id", date(("created_at" + 32400000) / 1000, 'unixepoch'), 0, 0, 0 FROM `request_logs` WHERE true ON CONFLICT DO NOTHING;--> statement-breakpoint
DROP TABLE `request_logs`;--> statement-breakpoint
ALTER TABLE `__new_request_logs` RENAME TO `request_logs`;--> statement-breakpoint
CREATE INDEX `request_logs_workspace` ON `request_logs` (`workspace_id`,`created_at`,`id`);--> statement-breakpoint
CREATE UNIQUE INDEX `request_logs_collapse_key` ON `request_logs` (`collapse_key`) WHERE collapse_key IS NOT NULL;
