/**
 * One object per stored task unit: its records as NDJSON, then the same
 * records as CSV rows. Each store writes a new object; the unit's commit in
 * D1 names the one its records are in (and where the CSV rows start), so a
 * redelivered unit never adds records and a delivery that lost its lease
 * cannot overwrite committed ones. An empty resultId gives the unit's prefix.
 */
export const unitResultsKey = (jobId: string, unitIndex: number, resultId: string) => `results/${jobId}/${String(unitIndex).padStart(6, "0")}/${resultId}`;
