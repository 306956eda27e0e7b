ALTER TABLE `jobs` ADD `lease_fence` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX `jobs_credential_fence` ON `jobs` (`credential_id`,`lease_fence`);