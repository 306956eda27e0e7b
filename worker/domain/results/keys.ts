/**
 * One object per set of task units stored together, named for the first of
 * them: their records as NDJSON, then the same records as CSV rows, unit by
 * unit. Each store writes a new object; each unit's commit in D1 names the
 * one its records are in (and where its bytes lie), so a redelivered unit
 * never adds records and a delivery that lost its lease cannot overwrite
 * committed ones. An empty resultId gives the prefix of the objects named
 * for a unit.
 */
export const unitResultsKey = (jobId: string, unitIndex: number, resultId: string) => `${jobResultsPrefix(jobId)}${String(unitIndex).padStart(6, "0")}/${resultId}`;

/** Where every object of a job lies, whichever unit or delivery wrote it: what deleting its results removes. */
export const jobResultsPrefix = (jobId: string) => `results/${jobId}/`;
