import { type KeyLapse, keyLapse } from "../api-keys/standing";
import type { Principal } from "../api-keys/rights";
import { ApiError } from "../../platform/errors/api-error";
import type { JobRow } from "../jobs/store";
import type { ResultFile } from "../results/download";
import { isoTime } from "../../platform/lib/iso-time";
import { workspaceJob } from "../jobs/workspace-job";
import { storedExpiry } from "../jobs/results-rows";
import { resultsDeleted, resultsGone } from "../results/job-results";
import { signLink, verifyLink } from "./token";

/** Where links are served: the token is the last segment, so a link is one opaque URL. */
export const DOWNLOAD_LINK_PATH = "/api/v1/download-links/";

export const DEFAULT_LINK_SECONDS = 3600;
export const MIN_LINK_SECONDS = 60;
export const MAX_LINK_SECONDS = 7 * 24 * 3600;

/**
 * A link to a job's CSV or workbook (`file`, signed into the link) for whoever holds it. It lives `seconds`, but never
 * past the expiry of the key that makes it, as keys a key issues do not
 * (domain/api-keys/rights.ts): a short-lived key cannot hand out longer access;
 * nor past the job's results (docs/retention.md), and results already gone get none.
 */
export async function createDownloadLink(env: Env, origin: string, principal: Principal, job: JobRow, link: { expiresInSeconds: number; format: ResultFile }, now: number) {
  const stored = await storedExpiry(env.DB, job.id);
  if (resultsGone(stored, now)) throw resultsDeleted(stored);
  const until = Math.min(now + link.expiresInSeconds * 1000, principal.rights.expiresAt ?? Infinity, stored.resultsExpireAt ?? Infinity);
  const expiresAt = Math.floor(until / 1000);
  const token = await signLink(env.DOWNLOAD_LINK_KEYS, { jobId: job.id, file: link.format, workspaceId: job.workspaceId, apiKeyId: principal.apiKeyId, expiresAt });
  return { url: `${origin}${DOWNLOAD_LINK_PATH}${token}`, expiresAt: isoTime(expiresAt * 1000) };
}

const refused = (message: string) => new ApiError("INVALID_TOKEN", { message });

const MAKER_LAPSED: Record<KeyLapse, string> = {
  KEY_REVOKED: "이 다운로드 링크를 만든 API 키가 폐기되어",
  CONNECTION_ENDED: "이 다운로드 링크를 만든 파트너의 사업자 연결이 해지되어",
  WORKSPACE_SUSPENDED: "이 다운로드 링크를 만든 워크스페이스의 이용이 정지되어",
};

/**
 * The job a link opens and which of its files, or the refusal: a token not signed by a key of the
 * keyring (tampered, truncated, made up, or its key rotated out) and a link
 * whose maker no longer stands (its key revoked, a partner's connection to
 * the business revoked, or the workspace suspended: keyLapse) are
 * INVALID_TOKEN; an expired one TOKEN_EXPIRED. The
 * job is inside the signed token, so a link cannot be pointed at another job.
 */
export async function openDownloadLink(env: Env, token: string, now: number): Promise<{ job: JobRow; file: ResultFile }> {
  const claims = await verifyLink(env.DOWNLOAD_LINK_KEYS, token);
  if (!claims) throw refused("다운로드 링크가 올바르지 않습니다. 링크를 받은 그대로 쓰거나, API 키로 새 링크를 만들어 주세요.");
  if (claims.expiresAt * 1000 <= now) {
    throw new ApiError("TOKEN_EXPIRED", { message: `다운로드 링크가 ${isoTime(claims.expiresAt * 1000)}에 만료되었습니다. API 키로 새 링크를 만들어 주세요.` });
  }
  const lapse = await keyLapse(env.DB, claims.apiKeyId, claims.workspaceId);
  if (lapse) throw refused(`${MAKER_LAPSED[lapse]} 링크도 더는 쓸 수 없습니다. 유효한 API 키로 새 링크를 만들어 주세요.`);
  return { job: await workspaceJob(env, claims.workspaceId, claims.jobId), file: claims.file };
}
