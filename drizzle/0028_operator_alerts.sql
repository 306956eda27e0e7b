CREATE TABLE `operator_alerts` (
	`id` text PRIMARY KEY NOT NULL,
	`code` text NOT NULL,
	`provider_code` text NOT NULL,
	`threshold` integer NOT NULL,
	`window_ms` integer NOT NULL,
	`occurrences` integer NOT NULL,
	`example` text NOT NULL,
	`opened_at` integer NOT NULL,
	`last_seen_at` integer NOT NULL,
	`resolved_at` integer
);
--> statement-breakpoint
CREATE INDEX `operator_alerts_opened` ON `operator_alerts` (`opened_at`);