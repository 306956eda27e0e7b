/**
 * Objects per task unit: its records as NDJSON and the same records as CSV
 * rows. A redelivered unit overwrites its objects instead of adding records.
 */
const unitPrefix = (jobId: string, unitIndex: number) => `results/${jobId}/${String(unitIndex).padStart(6, "0")}`;

export const unitObjectKey = (jobId: string, unitIndex: number) => `${unitPrefix(jobId, unitIndex)}.ndjson`;
export const unitCsvKey = (jobId: string, unitIndex: number) => `${unitPrefix(jobId, unitIndex)}.csv`;
