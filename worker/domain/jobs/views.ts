import { findSchema } from "../catalog/schemas";
import { findProvider } from "../catalog/providers";
import { publicationOf, unpublishedFrom } from "../catalog/publication";
import { sinceOf } from "./since";
import type { JobRow } from "./store";
import { isoTime } from "../../platform/lib/iso-time";
import type { JobError } from "../../../contracts/job-failures";
import type { HolderApproval } from "../../../contracts/task-unit";

/** The spec's polling interval. */
export const SUGGESTED_POLL_INTERVAL_MS = 5000;

/** The interval a deployment suggests: the spec's, unless SUGGESTED_POLL_INTERVAL_MS names a whole number of milliseconds. */
export function pollIntervalMs(env: Pick<Env, "SUGGESTED_POLL_INTERVAL_MS">): number {
  const configured = Number(env.SUGGESTED_POLL_INTERVAL_MS);
  return Number.isInteger(configured) && configured > 0 ? configured : SUGGESTED_POLL_INTERVAL_MS;
}

interface Common {
  id: string;
  providerCode: string;
  schema: string;
  credentialId: string | null;
  suggestedPollIntervalMs: number;
  maxWaitSeconds: number;
  unpublishedFrom?: string;
}

export type DataJobView =
  | (Common & {
      kind: "InProgress";
      phase: "PENDING" | "RUNNING";
      completedTaskCount: number;
      totalTaskCount: number;
      queuePosition?: number;
      maintenanceUntil?: string;
      awaitingHolder?: HolderApproval;
    })
  | (Common & { kind: "Succeeded"; recordCount: number; since?: string; resultsExpireAt?: string })
  | (Common & { kind: "Failed"; error: JobError; resultsExpireAt?: string });

type ListCommon = Pick<Common, "id" | "providerCode" | "schema" | "credentialId">;

export type DataJobListItem =
  | (ListCommon & { kind: "InProgress"; awaitingHolder?: HolderApproval })
  | (ListCommon & { kind: "Succeeded" })
  | (ListCommon & { kind: "Failed"; error: JobError });

export function maxWaitSeconds(row: Pick<JobRow, "createdAt" | "deadlineAt">): number {
  return Math.ceil((row.deadlineAt - row.createdAt) / 1000);
}

export type JobKind = DataJobView["kind"];

/** The spec's `kind` of a stored job's status. */
export function jobKind(row: Pick<JobRow, "status">): JobKind {
  return row.status === "SUCCEEDED" ? "Succeeded" : row.status === "FAILED" ? "Failed" : "InProgress";
}

/** A finished job's extension field: when its results stop being served (docs/retention.md). */
const expiry = (row: JobRow) => (row.resultsExpireAt === null ? {} : { resultsExpireAt: isoTime(row.resultsExpireAt) });

/** A dated job's extension field: the first day of its range the institution had not published when it was asked (catalog/publication.ts). */
function unpublished(row: JobRow): { unpublishedFrom?: string } {
  const provider = findProvider(row.providerCode);
  const { dateRangeStart: start, dateRangeEnd: end } = row.params;
  if (!provider || typeof start !== "string" || typeof end !== "string") return {};
  const from = unpublishedFrom(publicationOf(provider, row.schema), { start, end }, row.createdAt);
  return from === null ? {} : { unpublishedFrom: from };
}

/** The spec's `kind` variant of a stored job. */
export function jobView(row: JobRow, suggestedPollIntervalMs = SUGGESTED_POLL_INTERVAL_MS): DataJobView {
  const common: Common = {
    id: row.id,
    providerCode: row.providerCode,
    schema: row.schema,
    credentialId: row.credentialId,
    suggestedPollIntervalMs,
    maxWaitSeconds: maxWaitSeconds(row),
    ...unpublished(row),
  };
  switch (row.status) {
    case "SUCCEEDED":
      return { kind: "Succeeded", ...common, recordCount: row.recordCount, ...(findSchema(row.schema)?.identity ? { since: sinceOf(row) } : {}), ...expiry(row) };
    case "FAILED":
      return { kind: "Failed", ...common, error: row.error!, ...expiry(row) };
    default:
      return {
        kind: "InProgress",
        ...common,
        // A job whose login waits for its holder has started: it holds its credential and the app was asked.
        phase: row.awaitingHolder ? "RUNNING" : row.status,
        completedTaskCount: row.completedTaskCount,
        totalTaskCount: row.totalTaskCount,
        ...(row.status === "PENDING" && row.queuePosition !== null ? { queuePosition: row.queuePosition } : {}),
        ...(row.resumesAt !== null ? { maintenanceUntil: new Date(row.resumesAt).toISOString() } : {}),
        ...(row.awaitingHolder ? { awaitingHolder: row.awaitingHolder } : {}),
      };
  }
}

export function jobListItem(row: JobRow): DataJobListItem {
  const base = { id: row.id, providerCode: row.providerCode, schema: row.schema, credentialId: row.credentialId };
  if (row.status === "FAILED") return { kind: "Failed", ...base, error: row.error! };
  if (row.status === "SUCCEEDED") return { kind: "Succeeded", ...base };
  return { kind: "InProgress", ...base, ...(row.awaitingHolder ? { awaitingHolder: row.awaitingHolder } : {}) };
}
