import { base64UrlDecode, base64UrlEncode } from "../../../contracts/base64url";
import { hmacKey } from "../../platform/lib/crypto";
import type { ResultFile } from "../results/download";

/** What a download link grants: one job's CSV or workbook, in the workspace it was made in, by the key that made it, until it expires. */
export interface LinkClaims {
  jobId: string;
  file: ResultFile;
  workspaceId: string;
  apiKeyId: string;
  /** Epoch seconds. */
  expiresAt: number;
}

interface LinkKey {
  id: string;
  secret: string;
}

const KEY_ID = /^[A-Za-z0-9_-]{1,32}$/;
/** As long as the other HMAC secrets: 32 random bytes in base64url are 43 characters. */
export const MIN_LINK_SECRET_LENGTH = 32;
/** Separates these MACs from any other use of the same secret: each kind of link signs under its own. */
const DOMAIN = "collect-download-link-v1";
const encoder = new TextEncoder();

/** Why a `DOWNLOAD_LINK_KEYS` value is unusable, never quoting it; null when it is usable. */
export function linkKeyringProblem(value: string): string | null {
  const entries = value.split(",").map((entry) => entry.trim());
  const ids = new Set<string>();
  for (const entry of entries) {
    const colon = entry.indexOf(":");
    const id = entry.slice(0, colon);
    if (colon < 0 || !KEY_ID.test(id)) return "is not <id>:<secret>[,<id>:<secret>...] with ids of letters, digits, - and _";
    if (ids.has(id)) return `names key id ${id} twice`;
    if (entry.length - colon - 1 < MIN_LINK_SECRET_LENGTH) return `key ${id} is shorter than ${MIN_LINK_SECRET_LENGTH} characters`;
    ids.add(id);
  }
  return null;
}

/**
 * The keyring: `DOWNLOAD_LINK_KEYS` is `<id>:<secret>[,<id>:<secret>...]`.
 * The first key signs new links and every key verifies, so a rotation puts
 * a new key first, keeps the old one until its last links expired (7 days
 * at most), then drops it.
 */
function keyring(value: string): LinkKey[] {
  const problem = linkKeyringProblem(value);
  if (problem) throw new Error(`secret DOWNLOAD_LINK_KEYS ${problem}`);
  return value.split(",").map((entry) => {
    const trimmed = entry.trim();
    const colon = trimmed.indexOf(":");
    return { id: trimmed.slice(0, colon), secret: trimmed.slice(colon + 1) };
  });
}

const signedPart = (domain: string, keyId: string, payload: string) => encoder.encode(`${domain}.${keyId}.${payload}`);

/**
 * `<key id>.<claims, base64url JSON>.<HMAC-SHA256 of both under `domain`, base64url>`: URL-safe as it is. Every signed
 * link of the service goes through here (download links, holders' manage links), each kind under its own `domain`, so a
 * token of one kind never verifies as another.
 */
export async function signClaims(keys: string, domain: string, claims: Record<string, string | number>): Promise<string> {
  const key = keyring(keys)[0]!;
  const payload = base64UrlEncode(encoder.encode(JSON.stringify(claims)));
  const mac = await crypto.subtle.sign("HMAC", await hmacKey(key.secret), signedPart(domain, key.id, payload));
  return `${key.id}.${payload}.${base64UrlEncode(new Uint8Array(mac))}`;
}

/**
 * The claims of a token one of the keys signed under `domain`, expired or not (the caller tells expiry apart); null
 * for anything else: malformed, signed by a key no longer in the keyring or for another kind of link, or changed in any byte.
 */
export async function verifyClaims(keys: string, domain: string, token: string): Promise<Record<string, unknown> | null> {
  const [keyId, payload, mac, ...rest] = token.split(".");
  if (rest.length || !keyId || !payload || !mac) return null;
  const key = keyring(keys).find((k) => k.id === keyId);
  const signature = base64UrlDecode(mac);
  if (!key || !signature) return null;
  // crypto.subtle.verify compares in constant time.
  if (!(await crypto.subtle.verify("HMAC", await hmacKey(key.secret), signature, signedPart(domain, key.id, payload)))) return null;
  try {
    const claims: unknown = JSON.parse(new TextDecoder().decode(base64UrlDecode(payload) ?? new Uint8Array()));
    return claims && typeof claims === "object" ? (claims as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** Signs a link; without `file`, a CSV link. */
export function signLink(keys: string, claims: Omit<LinkClaims, "file"> & Partial<Pick<LinkClaims, "file">>): Promise<string> {
  // A CSV link's claims are as they were before links had a format, so links made then open as they did.
  const format: Record<string, string> = claims.file === "xlsx" ? { f: claims.file } : {};
  return signClaims(keys, DOMAIN, { j: claims.jobId, w: claims.workspaceId, k: claims.apiKeyId, e: claims.expiresAt, ...format });
}

/** A download link's claims, or null (see verifyClaims). */
export async function verifyLink(keys: string, token: string): Promise<LinkClaims | null> {
  const { j, w, k, e, f = "csv" } = (await verifyClaims(keys, DOMAIN, token)) ?? {};
  if (typeof j !== "string" || typeof w !== "string" || typeof k !== "string" || !Number.isSafeInteger(e) || (f !== "csv" && f !== "xlsx")) return null;
  return { jobId: j, file: f, workspaceId: w, apiKeyId: k, expiresAt: e as number };
}
