DROP INDEX `credentials_one_per_provider`;--> statement-breakpoint
ALTER TABLE `credentials` ADD `identity` text;--> statement-breakpoint
ALTER TABLE `credentials` ADD `is_default` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `credentials` ADD `business_number` text;--> statement-breakpoint
-- Before these, a workspace held one live credential per provider: each is its provider's default.
UPDATE `credentials` SET `is_default` = 1 WHERE `status` = 'ACTIVE';--> statement-breakpoint
UPDATE `credentials` SET `business_number` = (SELECT `business_number` FROM `workspaces` WHERE `workspaces`.`id` = `credentials`.`workspace_id`);--> statement-breakpoint
-- A certificate's identity is on its face already; a login's is in its secret, read by the identity backfill task,
-- which also takes the certificates held live for two providers at once (their identities would collide here).
UPDATE `credentials` SET `identity` = 'certificate:' || json_extract(`certificate`, '$.issuer') || '#' || json_extract(`certificate`, '$.serialNumber')
WHERE `certificate` IS NOT NULL AND `status` <> 'DELETED' AND NOT EXISTS (
  SELECT 1 FROM `credentials` AS `other`
  WHERE `other`.`workspace_id` = `credentials`.`workspace_id` AND `other`.`id` <> `credentials`.`id`
    AND `other`.`status` = 'ACTIVE' AND `credentials`.`status` = 'ACTIVE'
    AND json_extract(`other`.`certificate`, '$.issuer') = json_extract(`credentials`.`certificate`, '$.issuer')
    AND json_extract(`other`.`certificate`, '$.serialNumber') = json_extract(`credentials`.`certificate`, '$.serialNumber')
);--> statement-breakpoint
CREATE UNIQUE INDEX `credentials_one_live_identity` ON `credentials` (`workspace_id`,`identity`) WHERE status = 'ACTIVE';--> statement-breakpoint
CREATE UNIQUE INDEX `credentials_one_default` ON `credentials` (`workspace_id`,`provider_code`) WHERE status = 'ACTIVE' AND is_default = 1;--> statement-breakpoint
CREATE INDEX `credentials_workspace_provider` ON `credentials` (`workspace_id`,`provider_code`,`status`);