/** One object per task unit: a redelivered unit overwrites its object instead of adding records. */
export function unitObjectKey(jobId: string, unitIndex: number): string {
  return `results/${jobId}/${String(unitIndex).padStart(6, "0")}.ndjson`;
}
