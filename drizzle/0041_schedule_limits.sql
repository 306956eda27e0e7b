ALTER TABLE `credentials` ADD `check_requested_at` integer;--> statement-breakpoint
CREATE INDEX `jobs_billing_status` ON `jobs` (`billing_workspace_id`,`status`);--> statement-breakpoint
-- Schedules made before one ACTIVE schedule per credential and schema: the oldest of each keeps running, the others
-- pause, saying why (their alarms find them paused and stop).
UPDATE `schedules` SET `status` = 'PAUSED', `next_run_at` = NULL, `paused_reason` = '같은 자격 증명과 schema를 수집하는 실행 중인 일정이 이미 있어 일시 중지했습니다. 자격 증명과 schema마다 실행 중인 일정은 하나입니다.'
WHERE `status` = 'ACTIVE' AND EXISTS (
  SELECT 1 FROM `schedules` AS `older` WHERE `older`.`status` = 'ACTIVE' AND `older`.`workspace_id` = `schedules`.`workspace_id`
    AND `older`.`provider_code` = `schedules`.`provider_code` AND `older`.`schema` = `schedules`.`schema` AND `older`.`credential_id` IS `schedules`.`credential_id`
    AND (`older`.`created_at` < `schedules`.`created_at` OR (`older`.`created_at` = `schedules`.`created_at` AND `older`.`id` < `schedules`.`id`))
);--> statement-breakpoint
CREATE UNIQUE INDEX `schedules_one_active_per_credential` ON `schedules` (`workspace_id`,`provider_code`,`schema`,`credential_id`) WHERE status = 'ACTIVE' AND credential_id IS NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX `schedules_one_active_per_default` ON `schedules` (`workspace_id`,`provider_code`,`schema`) WHERE status = 'ACTIVE' AND credential_id IS NULL;