-- A job's plan as one row (docs/costs.md, "A unit written once"): a unit's task_units row is written only by its
-- commit. WITHOUT ROWID, as task_units (drizzle/0034): one row written a plan, not two with the key's index. Jobs
-- planned before keep their QUEUED rows, which the readers take for their plan (domain/jobs/store.ts).
CREATE TABLE `job_plans` (
	`job_id` text PRIMARY KEY NOT NULL,
	`units` text NOT NULL,
	FOREIGN KEY (`job_id`) REFERENCES `jobs`(`id`) ON UPDATE no action ON DELETE no action
) WITHOUT ROWID;
