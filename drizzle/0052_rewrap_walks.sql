CREATE TABLE `rewrap_walks` (
	`store` text PRIMARY KEY NOT NULL,
	`keyring` text NOT NULL,
	`since` integer NOT NULL,
	`pass_started_at` integer NOT NULL,
	`after` text,
	`pass_done` integer DEFAULT false NOT NULL
);
