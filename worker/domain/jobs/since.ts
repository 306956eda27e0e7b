import { base64UrlDecode, base64UrlEncode } from "../../../contracts/base64url";
import type { SchemaDefinition } from "../catalog/schemas";
import { canonicalJson } from "../../platform/lib/canonical-json";
import { invalidCursor } from "../../platform/database/cursor";
import { findJob, type JobRow } from "./store";
import { resultsGone } from "../results/job-results";

const FIELD = "body.params.since";
const PREFIX = "since.v1.";

/** Params that choose what is collected, the range and the base aside: an incremental job must choose as its base did. */
function filters(params: Record<string, unknown>): string {
  const { dateRangeStart: _start, dateRangeEnd: _end, since: _since, ...rest } = params;
  return canonicalJson(rest);
}

/**
 * The `since` a succeeded job of a dated schema hands out. Opaque to clients, so its form may change; it needs no
 * signature, since a request can only name a job of its own workspace with it, which it may name anyway.
 */
export function sinceOf(job: Pick<JobRow, "id">): string {
  return base64UrlEncode(new TextEncoder().encode(`${PREFIX}${job.id}`));
}

function jobIdOf(since: string): string | null {
  const bytes = base64UrlDecode(since);
  const text = bytes ? new TextDecoder().decode(bytes) : "";
  return text.startsWith(PREFIX) ? text.slice(PREFIX.length) : null;
}

/**
 * The job an incremental request diffs against: a succeeded job of this workspace, schema and credential that
 * chose the same accounts, cards or currency. Anything else is INVALID_CURSOR on `params.since`, saying which.
 */
export async function sinceBase(
  d1: D1Database,
  workspaceId: string,
  schema: SchemaDefinition,
  params: Record<string, unknown>,
  credentialId: string | null,
): Promise<JobRow | null> {
  if (typeof params.since !== "string") return null;
  const id = jobIdOf(params.since);
  if (id === null) throw invalidCursor(FIELD, "since 값이 올바르지 않습니다. 성공한 작업이 돌려준 since를 그대로 보내 주세요.");
  const base = await findJob(d1, workspaceId, id);
  if (!base || base.status !== "SUCCEEDED") throw invalidCursor(FIELD, "since가 가리키는 성공한 작업이 없습니다.");
  // Its records are what the changes are found against: without them every record would read as added.
  if (resultsGone(base, Date.now())) throw invalidCursor(FIELD, "since가 가리키는 작업의 결과가 보관 기간이 지났거나 삭제되어 바뀐 것만 고를 수 없습니다. since 없이 전체를 수집해 주세요.");
  if (base.schema !== schema.id) throw invalidCursor(FIELD, `since는 같은 schema(${schema.id})의 작업이 돌려준 값이어야 합니다.`);
  if (base.credentialId !== credentialId) throw invalidCursor(FIELD, "since는 같은 자격증명으로 수집한 작업이 돌려준 값이어야 합니다.");
  if (filters(base.params) !== filters(params)) throw invalidCursor(FIELD, "since의 작업과 계좌·카드·통화 조건이 같아야 합니다.");
  return base;
}
