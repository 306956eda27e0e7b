CREATE TABLE `provider_days` (
	`provider_code` text NOT NULL,
	`day` text NOT NULL,
	`ended` integer NOT NULL,
	`counted` integer NOT NULL,
	`succeeded` integer NOT NULL,
	PRIMARY KEY(`provider_code`, `day`)
);
--> statement-breakpoint
CREATE INDEX `provider_days_day` ON `provider_days` (`day`);