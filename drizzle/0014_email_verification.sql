ALTER TABLE `users` ADD `email_verified_at` integer;--> statement-breakpoint
ALTER TABLE `workspaces` ADD `sandbox_only` integer DEFAULT false NOT NULL;