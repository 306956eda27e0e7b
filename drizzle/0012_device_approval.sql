ALTER TABLE `api_keys` ADD `device_issued` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `device_codes` ADD `platform` text;