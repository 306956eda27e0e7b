import { ApiError } from "../../platform/errors/api-error";
import { isoTime } from "../../platform/lib/iso-time";
import { DAY_MS, resultsRetention } from "../workspaces/results-retention";
import type { FinishedUnits } from "./unit-results";

/**
 * What results read of a job's row (jobs/store.ts JobRow has all of it): results sit below jobs and read none of its
 * tables, so jobs passes its row, and what it read of the row's units (jobs/results-rows.ts resultUnits).
 */
export interface ResultsJob {
  id: string;
  schema: string;
  /** The base of an incremental job: its results are the changes since (changes.ts). */
  sinceJobId: string | null;
  params: Record<string, unknown>;
}

/** What a job's results hold, as the job's `kind` says (jobs/views.ts jobKind): `InProgress` is its finished units so far, which still grow. */
export type ResultsKind = "Succeeded" | "Failed" | "InProgress";

/** A job's results as served, with the expiry D1 has for them (a deletion moves it: edge-cache.ts keys on it). */
export interface ServedUnits extends FinishedUnits {
  resultsExpireAt: number | null;
  kind: ResultsKind;
}

const WHY = {
  EXPIRED: "보관 기간이 끝나",
  REQUESTED: "삭제 요청에 따라",
  CREDENTIAL_DELETED: "수집한 자격 증명과 함께",
};

/** When a job's results stop being served, and why if before their time (jobs/tables.ts RESULTS_DELETION_REASONS). */
interface Expiry {
  resultsExpireAt: number | null;
  resultsDeletedReason: Exclude<keyof typeof WHY, "EXPIRED"> | null;
}

/** When the results of a job of the workspace finishing at `finishedAt` stop being served: its retention as it is now. */
export async function resultsExpiry(d1: D1Database, workspaceId: string, finishedAt: number): Promise<number> {
  return finishedAt + (await resultsRetention(d1, workspaceId)).days * DAY_MS;
}

/** Whether a job's results are no longer served: expired, or deleted (which moves the expiry to the deletion). */
export const resultsGone = (row: Pick<Expiry, "resultsExpireAt">, now: number): boolean => row.resultsExpireAt !== null && row.resultsExpireAt <= now;

/** 410 DATA_JOB_RESULTS_DELETED, saying when and why, for a job whose results are gone. */
export function resultsDeleted(row: Expiry): ApiError {
  const at = isoTime(row.resultsExpireAt!);
  return new ApiError("DATA_JOB_RESULTS_DELETED", {
    message: `이 작업의 결과는 ${WHY[row.resultsDeletedReason ?? "EXPIRED"]} ${at}에 삭제되었습니다. 작업 정보는 GET /api/v1/data-jobs/{id}에서 계속 볼 수 있습니다. 결과가 필요하면 작업을 다시 만들어 주세요.`,
  });
}
