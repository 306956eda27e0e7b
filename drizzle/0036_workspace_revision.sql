ALTER TABLE `workspaces` ADD `revision` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- A create keeps what it read of a workspace and inserts only at the revision it read (worker/jobs/create-context.ts).
-- The triggers draw a new random revision on every change to what a create reads (jobBillingStatement,
-- CANDIDATE_COLUMNS, the endpoints a job born Failed is announced to), whoever makes it: an UPDATE OF fires only when the statement sets one of those columns, never
-- for the revision itself, so a credential's check state or label moves nothing. Random, not counted up: a workspace
-- made again under an id it had before (a test's fixed id) must not meet an old revision of the same number. Kept
-- within 53 bits, as D1 hands integers to JavaScript as doubles and a rounded one would never match again.
UPDATE `workspaces` SET `revision` = (random() & 9007199254740991);--> statement-breakpoint
CREATE TRIGGER `workspaces_revision_insert` AFTER INSERT ON `workspaces` BEGIN UPDATE `workspaces` SET `revision` = (random() & 9007199254740991) WHERE `id` = NEW.`id`; END;--> statement-breakpoint
CREATE TRIGGER `workspaces_revision_update` AFTER UPDATE OF `plan`, `monthly_job_cap`, `suspended_at`, `past_due_since`, `billing_workspace_id` ON `workspaces` BEGIN UPDATE `workspaces` SET `revision` = (random() & 9007199254740991) WHERE `id` = NEW.`id`; END;--> statement-breakpoint
CREATE TRIGGER `credentials_revision_insert` AFTER INSERT ON `credentials` BEGIN UPDATE `workspaces` SET `revision` = (random() & 9007199254740991) WHERE `id` = NEW.`workspace_id`; END;--> statement-breakpoint
CREATE TRIGGER `credentials_revision_update` AFTER UPDATE OF `workspace_id`, `provider_code`, `status`, `is_default`, `certificate`, `known_targets`, `sealed`, `schemas` ON `credentials` BEGIN UPDATE `workspaces` SET `revision` = (random() & 9007199254740991) WHERE `id` IN (OLD.`workspace_id`, NEW.`workspace_id`); END;--> statement-breakpoint
CREATE TRIGGER `credentials_revision_delete` AFTER DELETE ON `credentials` BEGIN UPDATE `workspaces` SET `revision` = (random() & 9007199254740991) WHERE `id` = OLD.`workspace_id`; END;
--> statement-breakpoint
CREATE TRIGGER `webhook_endpoints_revision_insert` AFTER INSERT ON `webhook_endpoints` BEGIN UPDATE `workspaces` SET `revision` = (random() & 9007199254740991) WHERE `id` = NEW.`workspace_id`; END;--> statement-breakpoint
CREATE TRIGGER `webhook_endpoints_revision_update` AFTER UPDATE OF `workspace_id`, `events` ON `webhook_endpoints` BEGIN UPDATE `workspaces` SET `revision` = (random() & 9007199254740991) WHERE `id` IN (OLD.`workspace_id`, NEW.`workspace_id`); END;--> statement-breakpoint
CREATE TRIGGER `webhook_endpoints_revision_delete` AFTER DELETE ON `webhook_endpoints` BEGIN UPDATE `workspaces` SET `revision` = (random() & 9007199254740991) WHERE `id` = OLD.`workspace_id`; END;
