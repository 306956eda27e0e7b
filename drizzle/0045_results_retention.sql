-- Jobs that finished before results had an expiry (docs/retention.md) keep theirs 30 days from this migration, the
-- longest the free plan allows, so no one's results vanish the moment retention starts; the cron then removes them.
UPDATE `jobs` SET `results_expire_at` = CAST(strftime('%s', 'now') AS INTEGER) * 1000 + 30 * 86400000 WHERE `finished_at` IS NOT NULL AND `results_expire_at` IS NULL;
