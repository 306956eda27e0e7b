import type { LoginCredential } from "../../../contracts/task-unit";
import { base64Decode, base64UrlDecode, base64UrlEncode } from "../../../contracts/base64url";
import { keyringEntries } from "./keyring";

/**
 * Envelope encryption: each credential gets its own AES-256-GCM data key,
 * and only that data key is wrapped by the master key (also AES-GCM). The
 * version names the master key, so keys can rotate without re-encrypting
 * everything at once.
 */
export interface SealedSecret {
  /** 2 binds the secret to its credential id, workspace and provider; 1 (sealed before that) to the id alone. */
  v: 1 | 2;
  /** Master key version that wrapped the data key. */
  kv: number;
  /** Data key, wrapped: iv + ciphertext, base64url. */
  dk: string;
  /** Payload: iv + ciphertext, base64url. */
  ct: string;
}

export const CURRENT_KEY_VERSION = 1;
const encoder = new TextEncoder();

/** The row a sealed secret belongs to: bound as additional data, so the secret opens for that row only. */
export interface SealContext {
  credentialId: string;
  workspaceId: string;
  providerCode: string;
}

/** The additional data a format version binds; JSON keeps the parts apart whatever they contain. */
function boundData(v: SealedSecret["v"], context: SealContext): string {
  return v === 1 ? context.credentialId : JSON.stringify([context.credentialId, context.workspaceId, context.providerCode]);
}

/** The master key of `version` in the keyring (domain/vault/keyring.ts). */
function masterKeyBytes(secret: string, version: number): Uint8Array<ArrayBuffer> {
  const entry = keyringEntries(secret).find((e) => e.version === version);
  const bytes = entry ? base64Decode(entry.key) : null;
  if (!bytes || bytes.byteLength !== 32) throw new Error(`vault master key v${version} missing or not 32 bytes`);
  return bytes;
}

export function latestKeyVersion(secret: string): number {
  return Math.max(...keyringEntries(secret).map((e) => e.version));
}

async function aesKey(raw: Uint8Array<ArrayBuffer>, usages: ("encrypt" | "decrypt")[]): Promise<CryptoKey> {
  return crypto.subtle.importKey("raw", raw, "AES-GCM", false, usages);
}

async function encrypt(key: CryptoKey, plain: Uint8Array<ArrayBuffer>, aad: string): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const ct = new Uint8Array(await crypto.subtle.encrypt({ name: "AES-GCM", iv, additionalData: encoder.encode(aad) }, key, plain));
  const out = new Uint8Array(iv.byteLength + ct.byteLength);
  out.set(iv);
  out.set(ct, iv.byteLength);
  return base64UrlEncode(out);
}

async function decrypt(key: CryptoKey, sealed: string, aad: string): Promise<Uint8Array<ArrayBuffer>> {
  const bytes = base64UrlDecode(sealed);
  if (!bytes || bytes.byteLength < 13) throw new Error("sealed value malformed");
  return new Uint8Array(
    await crypto.subtle.decrypt({ name: "AES-GCM", iv: bytes.slice(0, 12), additionalData: encoder.encode(aad) }, key, bytes.slice(12)),
  );
}

/** Seals `plain` under a fresh data key, bound to `bound` (additional data): it opens only with the same binding. */
async function sealBound(masterSecret: string, bound: string, plain: string): Promise<string> {
  const kv = latestKeyVersion(masterSecret);
  const dataKey = crypto.getRandomValues(new Uint8Array(32));
  const master = await aesKey(masterKeyBytes(masterSecret, kv), ["encrypt"]);
  const sealed: SealedSecret = {
    v: 2,
    kv,
    dk: await encrypt(master, dataKey, `dk:${bound}`),
    ct: await encrypt(await aesKey(dataKey, ["encrypt"]), new Uint8Array(encoder.encode(plain)), `ct:${bound}`),
  };
  dataKey.fill(0);
  return JSON.stringify(sealed);
}

async function openBound(masterSecret: string, sealed: SealedSecret, bound: string): Promise<string> {
  const master = await aesKey(masterKeyBytes(masterSecret, sealed.kv), ["decrypt"]);
  const dataKey = await decrypt(master, sealed.dk, `dk:${bound}`);
  const plain = await decrypt(await aesKey(dataKey, ["decrypt"]), sealed.ct, `ct:${bound}`);
  dataKey.fill(0);
  return new TextDecoder().decode(plain);
}

/**
 * What a re-wrap throws for a blob the keyring cannot open (its version retired, its binding not this row's, tampered
 * with): a rotation counts the row and leaves it as it is (vault/rewrap-rows.ts), while any other failure (the store
 * the blob is read from) still stops the run.
 */
export class SealedUnreadable extends Error {}

/**
 * The same secret with its data key wrapped by the keyring's newest master key, or null when it already is: the
 * payload is not touched (it stays under its data key), so a re-wrap never holds the secret in clear. A blob the
 * keyring cannot open throws SealedUnreadable, and is left as it was.
 */
async function rewrapBound(masterSecret: string, sealedJson: string, bound: (sealed: SealedSecret) => string): Promise<string | null> {
  try {
    const sealed = JSON.parse(sealedJson) as SealedSecret;
    const kv = latestKeyVersion(masterSecret);
    if (sealed.kv === kv) return null;
    const aad = `dk:${bound(sealed)}`;
    const dataKey = await decrypt(await aesKey(masterKeyBytes(masterSecret, sealed.kv), ["decrypt"]), sealed.dk, aad);
    const dk = await encrypt(await aesKey(masterKeyBytes(masterSecret, kv), ["encrypt"]), dataKey, aad);
    dataKey.fill(0);
    return JSON.stringify({ ...sealed, kv, dk } satisfies SealedSecret);
  } catch (cause) {
    throw new SealedUnreadable("the keyring opens no key of this sealed secret", { cause });
  }
}

export function rewrapCredential(masterSecret: string, context: SealContext, sealedJson: string): Promise<string | null> {
  return rewrapBound(masterSecret, sealedJson, (sealed) => boundData(sealed.v, context));
}

export function rewrapText(masterSecret: string, boundTo: readonly string[], sealedJson: string): Promise<string | null> {
  return rewrapBound(masterSecret, sealedJson, () => JSON.stringify(boundTo));
}

/**
 * Seals a credential for its row: the credential id, workspace and provider
 * are bound as additional data, so the blob does not open once copied onto
 * another row, nor once its row is moved to another workspace or provider.
 */
export async function sealCredential(masterSecret: string, context: SealContext, credential: LoginCredential): Promise<string> {
  return sealBound(masterSecret, boundData(2, context), JSON.stringify(credential));
}

/** Opens a secret sealed for this row; throws when it was sealed for another (or tampered with). */
export async function openCredential(masterSecret: string, context: SealContext, sealedJson: string): Promise<LoginCredential> {
  const sealed = JSON.parse(sealedJson) as SealedSecret;
  return JSON.parse(await openBound(masterSecret, sealed, boundData(sealed.v, context))) as LoginCredential;
}

/**
 * Seals any other secret text (a webhook signing secret) bound to what it
 * belongs to, e.g. `["webhook-endpoint", id, workspaceId]`: the blob opens
 * only for that same binding, so it cannot be copied onto another row.
 */
export function sealText(masterSecret: string, boundTo: readonly string[], text: string): Promise<string> {
  return sealBound(masterSecret, JSON.stringify(boundTo), text);
}

export function openText(masterSecret: string, boundTo: readonly string[], sealedJson: string): Promise<string> {
  return openBound(masterSecret, JSON.parse(sealedJson) as SealedSecret, JSON.stringify(boundTo));
}
