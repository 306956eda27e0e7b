CREATE TABLE `billing_ledger` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL,
	`invoice_id` text NOT NULL,
	`entry` text NOT NULL,
	`amount` integer NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `billing_ledger_workspace` ON `billing_ledger` (`workspace_id`,`created_at`);--> statement-breakpoint
CREATE UNIQUE INDEX `billing_ledger_one_entry_per_invoice` ON `billing_ledger` (`invoice_id`,`entry`);--> statement-breakpoint
CREATE TABLE `credit_uses` (
	`invoice_id` text NOT NULL,
	`credit_id` text NOT NULL,
	`amount` integer NOT NULL,
	`returned_at` integer,
	PRIMARY KEY(`invoice_id`, `credit_id`)
);
--> statement-breakpoint
CREATE TABLE `invoices` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL,
	`plan` text NOT NULL,
	`kind` text DEFAULT 'UPGRADE' NOT NULL,
	`period_start` integer NOT NULL,
	`period_end` integer NOT NULL,
	`overage_jobs` integer DEFAULT 0 NOT NULL,
	`overage_amount` integer DEFAULT 0 NOT NULL,
	`supply_amount` integer NOT NULL,
	`vat_amount` integer NOT NULL,
	`total_amount` integer NOT NULL,
	`credit_amount` integer DEFAULT 0 NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`last_attempt_at` integer,
	`next_attempt_at` integer,
	`status` text NOT NULL,
	`gateway_transaction_id` text,
	`last_failure_code` text,
	`created_at` integer NOT NULL,
	`paid_at` integer,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `invoices_workspace` ON `invoices` (`workspace_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `invoices_open` ON `invoices` (`status`,`kind`);--> statement-breakpoint
CREATE TABLE `payment_methods` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL,
	`sealed_billing_key` text NOT NULL,
	`billing_key_hash` text NOT NULL,
	`card_last4` text NOT NULL,
	`created_at` integer NOT NULL,
	`deleted_at` integer,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `payment_methods_workspace` ON `payment_methods` (`workspace_id`,`created_at`,`id`);--> statement-breakpoint
CREATE TABLE `subscriptions` (
	`workspace_id` text PRIMARY KEY NOT NULL,
	`status` text NOT NULL,
	`current_period_start` integer NOT NULL,
	`current_period_end` integer NOT NULL,
	`pending_plan` text,
	`payment_method_id` text,
	`past_due_since` integer,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `usage_credits` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL,
	`amount` integer NOT NULL,
	`remaining` integer NOT NULL,
	`expires_at` integer NOT NULL,
	`reason` text NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "usage_credits_never_negative" CHECK("usage_credits"."remaining" >= 0)
);
--> statement-breakpoint
CREATE INDEX `usage_credits_workspace` ON `usage_credits` (`workspace_id`,`expires_at`);--> statement-breakpoint
ALTER TABLE `workspaces` ADD `past_due_since` integer;--> statement-breakpoint
-- The ledger is append-only (worker/billing/invoices.ts): the database itself refuses to change or remove a row.
CREATE TRIGGER `billing_ledger_no_update` BEFORE UPDATE ON `billing_ledger` BEGIN SELECT RAISE(ABORT, 'billing_ledger is append-only'); END;--> statement-breakpoint
CREATE TRIGGER `billing_ledger_no_delete` BEFORE DELETE ON `billing_ledger` BEGIN SELECT RAISE(ABORT, 'billing_ledger is append-only'); END;
