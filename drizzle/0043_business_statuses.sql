CREATE TABLE `business_statuses` (
	`business_number` text PRIMARY KEY NOT NULL,
	`registered` integer NOT NULL,
	`status_code` text,
	`status` text,
	`closure_date` text,
	`checked_at` integer NOT NULL
);
