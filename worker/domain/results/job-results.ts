import { eq } from "drizzle-orm";
import { database } from "../../platform/database/client";
import { ApiError } from "../../platform/errors/api-error";
import { isoTime } from "../../platform/lib/iso-time";
import { DAY_MS, resultsRetention } from "../workspaces/results-retention";
import type { JobRow } from "./store";
import { jobs } from "./tables";

type Expiry = Pick<JobRow, "resultsExpireAt" | "resultsDeletedReason">;

/** When the results of a job of the workspace finishing at `finishedAt` stop being served: its retention as it is now. */
export async function resultsExpiry(d1: D1Database, workspaceId: string, finishedAt: number): Promise<number> {
  return finishedAt + (await resultsRetention(d1, workspaceId)).days * DAY_MS;
}

/** Whether a job's results are no longer served: expired, or deleted (which moves the expiry to the deletion). */
export const resultsGone = (row: Pick<JobRow, "resultsExpireAt">, now: number): boolean => row.resultsExpireAt !== null && row.resultsExpireAt <= now;

/** The job's expiry as D1 has it now: a finished row kept in an isolate (jobs/board.ts) may predate a deletion. */
export async function storedExpiry(d1: D1Database, jobId: string): Promise<Expiry> {
  const row = await database(d1).select({ resultsExpireAt: jobs.resultsExpireAt, resultsDeletedReason: jobs.resultsDeletedReason }).from(jobs).where(eq(jobs.id, jobId)).get();
  return row ?? { resultsExpireAt: null, resultsDeletedReason: null };
}

const WHY: Record<NonNullable<JobRow["resultsDeletedReason"]> | "EXPIRED", string> = {
  EXPIRED: "보관 기간이 끝나",
  REQUESTED: "삭제 요청에 따라",
  CREDENTIAL_DELETED: "수집한 자격 증명과 함께",
};

/** 410 DATA_JOB_RESULTS_DELETED, saying when and why, for a job whose results are gone. */
export function resultsDeleted(row: Expiry): ApiError {
  const at = isoTime(row.resultsExpireAt!);
  return new ApiError("DATA_JOB_RESULTS_DELETED", {
    message: `이 작업의 결과는 ${WHY[row.resultsDeletedReason ?? "EXPIRED"]} ${at}에 삭제되었습니다. 작업 정보는 GET /api/v1/data-jobs/{id}에서 계속 볼 수 있습니다. 결과가 필요하면 작업을 다시 만들어 주세요.`,
  });
}
