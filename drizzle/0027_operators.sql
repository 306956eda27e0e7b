CREATE TABLE `operator_audit` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`operator_id` text NOT NULL,
	`operator_email` text NOT NULL,
	`action` text NOT NULL,
	`target_kind` text NOT NULL,
	`target_id` text NOT NULL,
	`reason` text,
	`detail` text,
	`request_id` text NOT NULL,
	`at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `operator_audit_target` ON `operator_audit` (`target_kind`,`target_id`,`id`);--> statement-breakpoint
CREATE INDEX `operator_audit_operator` ON `operator_audit` (`operator_id`,`id`);--> statement-breakpoint
CREATE TABLE `operator_sessions` (
	`token_hash` text PRIMARY KEY NOT NULL,
	`operator_id` text NOT NULL,
	`created_at` integer NOT NULL,
	`expires_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `operator_sessions_operator` ON `operator_sessions` (`operator_id`);--> statement-breakpoint
CREATE TABLE `operators` (
	`id` text PRIMARY KEY NOT NULL,
	`email` text NOT NULL,
	`password_hash` text NOT NULL,
	`role` text NOT NULL,
	`totp_sealed` text NOT NULL,
	`totp_last_step` integer DEFAULT 0 NOT NULL,
	`disabled_at` integer,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `operators_email` ON `operators` (`email`);--> statement-breakpoint
CREATE TABLE `provider_outages` (
	`id` text PRIMARY KEY NOT NULL,
	`provider_code` text NOT NULL,
	`starts_at` integer NOT NULL,
	`ends_at` integer NOT NULL,
	`note` text NOT NULL,
	`announced_by` text NOT NULL,
	`withdrawn_at` integer,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `provider_outages_provider` ON `provider_outages` (`provider_code`,`ends_at`);--> statement-breakpoint
ALTER TABLE `workspaces` ADD `suspended_at` integer;--> statement-breakpoint
CREATE INDEX `workspaces_business_number` ON `workspaces` (`business_number`);--> statement-breakpoint
-- The audit log is append-only (worker/operators/audit.ts): no statement, ours included, may rewrite or remove a line.
CREATE TRIGGER `operator_audit_no_update` BEFORE UPDATE ON `operator_audit` BEGIN SELECT RAISE(ABORT, 'operator_audit is append-only'); END;
--> statement-breakpoint
CREATE TRIGGER `operator_audit_no_delete` BEFORE DELETE ON `operator_audit` BEGIN SELECT RAISE(ABORT, 'operator_audit is append-only'); END;
