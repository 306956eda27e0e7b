export interface FinishedUnits {
  unitIndexes: number[];
  recordCount: number;
}

/** Units whose records are committed, in unit order: the snapshot a results read streams. */
export async function finishedUnits(d1: D1Database, jobId: string): Promise<FinishedUnits> {
  const { results } = await d1
    .prepare("SELECT unit_index AS unitIndex, record_count AS recordCount FROM task_units WHERE job_id = ? AND status = 'DONE' ORDER BY unit_index")
    .bind(jobId)
    .all<{ unitIndex: number; recordCount: number }>();
  return { unitIndexes: results.map((r) => r.unitIndex), recordCount: results.reduce((sum, r) => sum + r.recordCount, 0) };
}
