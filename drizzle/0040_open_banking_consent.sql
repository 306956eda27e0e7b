ALTER TABLE `credentials` ADD `consent` text;--> statement-breakpoint
ALTER TABLE `registration_sessions` ADD `consent_state_hash` text;--> statement-breakpoint
ALTER TABLE `registration_sessions` ADD `consent_state_expires_at` integer;--> statement-breakpoint
ALTER TABLE `registration_sessions` ADD `consent_outcome` text;--> statement-breakpoint
CREATE UNIQUE INDEX `registration_sessions_consent_state` ON `registration_sessions` (`consent_state_hash`);