-- A job's plan as one row (docs/costs.md, "writing each unit once"): a unit's task_units row is written only by its
-- commit. WITHOUT ROWID, as task_units (drizzle/0034): one row written a plan, not two with the key's index.
CREATE TABLE `job_plans` (
	`job_id` text PRIMARY KEY NOT NULL,
	`units` text NOT NULL,
	FOREIGN KEY (`job_id`) REFERENCES `jobs`(`id`) ON UPDATE no action ON DELETE no action
) WITHOUT ROWID;
--> statement-breakpoint
-- The plans of jobs still under way, from the rows their planning wrote (a unit's index its place; a plan's units are
-- 0..n-1), so their chains go on from the plan; their QUEUED rows stay, and each commit updates its own. The inner
-- ORDER BY gives json_group_array its order: the aggregate's own ORDER BY needs SQLite 3.44.
INSERT OR IGNORE INTO `job_plans` (`job_id`, `units`)
SELECT `job_id`, json_group_array(json_object('targetId', `target_id`, 'targetAttributes', json(`target_attributes`), 'segmentStart', `segment_start`, 'segmentEnd', `segment_end`))
FROM (SELECT * FROM `task_units` WHERE `job_id` IN (SELECT `id` FROM `jobs` WHERE `status` IN ('PENDING', 'RUNNING')) ORDER BY `job_id`, `unit_index`)
GROUP BY `job_id`;
