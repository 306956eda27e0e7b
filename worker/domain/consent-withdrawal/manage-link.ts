import type { Principal } from "../api-keys/rights";
import { ApiError } from "../../platform/errors/api-error";
import { isoTime } from "../../platform/lib/iso-time";
import { signClaims, verifyClaims } from "../download-links/token";
import { type CredentialRow, findCredential } from "../credentials/store";
import { type KeyLapse, keyLapse } from "../api-keys/standing";

/** Where the holder's page is served: the token is the last segment, so a link is one opaque URL. */
export const MANAGE_PAGE_PATH = "/manage/";

/** Short-lived: long enough to open from a partner's screen or a mail the same day, not a standing key. */
export const DEFAULT_MANAGE_LINK_SECONDS = 3600;
export const MIN_MANAGE_LINK_SECONDS = 60;
export const MAX_MANAGE_LINK_SECONDS = 24 * 3600;

/** Its own MAC domain under the download links' keyring: a manage token never verifies as a download link, nor the reverse. */
const DOMAIN = "collect-manage-link-v1";

/**
 * A manage link to one credential's page for its holder, until it expires: signed with the key that makes it, so it
 * ends with that key's standing (openManageLink), and never past the key's own expiry, as download links do not.
 */
export async function createManageLink(
  env: Pick<Env, "DOWNLOAD_LINK_KEYS">,
  origin: string,
  credential: Pick<CredentialRow, "id" | "workspaceId">,
  maker: Pick<Principal, "apiKeyId" | "rights">,
  seconds: number,
  now: number,
) {
  const expiresAt = Math.floor(Math.min(now + seconds * 1000, maker.rights.expiresAt ?? Infinity) / 1000);
  const token = await signClaims(env.DOWNLOAD_LINK_KEYS, DOMAIN, { c: credential.id, w: credential.workspaceId, k: maker.apiKeyId, e: expiresAt });
  return { token, url: `${origin}${MANAGE_PAGE_PATH}${token}`, expiresAt: isoTime(expiresAt * 1000) };
}

const refused = (message: string) => new ApiError("INVALID_TOKEN", { message });

const MAKER_LAPSED: Record<KeyLapse, string> = {
  KEY_REVOKED: "이 관리 링크를 만든 API 키가 폐기되어",
  CONNECTION_ENDED: "이 관리 링크를 만든 곳의 사업자 연결이 해지되어",
  WORKSPACE_SUSPENDED: "이 관리 링크를 만든 곳의 서비스 이용이 정지되어",
};

/**
 * The live credential a link manages, or why not: a token not signed as a manage link (tampered, made up, a download
 * link, its key rotated out) is INVALID_TOKEN, an expired one TOKEN_EXPIRED; so is a link whose maker no longer stands
 * (keyLapse: its key revoked, the partner's connection ended, a workspace suspended), and a credential no longer live
 * (withdrawn, which uses the link up, deleted, or registered again), each saying which. The credential is inside the
 * signed token, so a link cannot be pointed at another one.
 */
export async function openManageLink(env: Pick<Env, "DB" | "DOWNLOAD_LINK_KEYS">, token: string, now: number): Promise<CredentialRow> {
  const { c, w, k, e } = (await verifyClaims(env.DOWNLOAD_LINK_KEYS, DOMAIN, token)) ?? {};
  if (typeof c !== "string" || typeof w !== "string" || typeof k !== "string" || !Number.isSafeInteger(e)) throw refused("관리 링크가 올바르지 않습니다. 받은 링크를 그대로 열거나, 요청한 곳에서 새 링크를 받아 주세요.");
  if ((e as number) * 1000 <= now) throw new ApiError("TOKEN_EXPIRED", { message: `관리 링크가 ${isoTime((e as number) * 1000)}에 만료되었습니다. 요청한 곳에서 새 링크를 받아 주세요.` });
  const lapse = await keyLapse(env.DB, k, w);
  if (lapse) throw refused(`${MAKER_LAPSED[lapse]} 링크도 더는 쓸 수 없습니다. 요청한 곳에서 새 링크를 받아 주세요.`);
  try {
    return await findCredential(env.DB, w, c);
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    throw refused("이 링크의 자격 증명은 이미 철회되었거나 삭제, 교체되어 더는 관리할 수 없습니다.");
  }
}
