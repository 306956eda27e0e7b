/**
 * The webhook contract shared by the service, the typed client and the CLI (a module of its own, so the server
 * depends on nothing client-side): event types, headers, and signatures for both ends. The service signs every
 * delivery with `signWebhook`, a receiver checks it with `verifyWebhook`. Pure WebCrypto,
 * so the same file runs in Node 22, browsers and Workers.
 *
 * Header `X-SVC-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<body>")>`; during a
 * secret rotation's overlap it carries one `v1=` per valid secret, and a receiver accepts any of them.
 *
 * Every delivery is also signed the Standard Webhooks way (https://www.standardwebhooks.com), so a partner in any
 * language verifies it with a maintained library of that standard: `webhook-id` (the event's id, the same on every
 * retry), `webhook-timestamp` (unix seconds) and `webhook-signature` (`v1,<base64 HMAC-SHA256(key,
 * "<id>.<timestamp>.<body>")>`, one per valid secret, space-separated), the key being the bytes the `whsec_`
 * secret's base64 encodes.
 */

export const WEBHOOK_EVENT_TYPES = [
  "data_job.succeeded",
  "data_job.failed",
  "data_job.awaiting_holder",
  "registration_session.consumed",
  "registration_session.cancelled",
  "registration_session.expired",
  "registration_session.locked",
  "credential.expiring",
  "credential.revoked",
  "schedule.paused",
] as const;

export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** A delivery's body: `data.object` is the resource as its GET endpoint returns it. */
export interface WebhookEvent<O = Record<string, unknown>> {
  id: string;
  type: WebhookEventType;
  createdAt: string;
  data: { object: O };
}

export const SIGNATURE_HEADER = "X-SVC-Signature";
export const STANDARD_WEBHOOK_HEADERS = { id: "webhook-id", timestamp: "webhook-timestamp", signature: "webhook-signature" } as const;
export const EVENT_ID_HEADER = "X-SVC-Event-Id";
export const EVENT_TYPE_HEADER = "X-SVC-Event-Type";

/** How far a signature's timestamp may be from the receiver's clock, by default: replayed old deliveries fail. */
export const DEFAULT_TOLERANCE_SECONDS = 300;

/** What verifyWebhook throws for a missing or bad signature, or a timestamp outside tolerance. */
export class WebhookSignatureError extends Error {
  readonly code = "WEBHOOK_SIGNATURE_INVALID" as const;

  constructor(message: string) {
    super(message);
    this.name = "WebhookSignatureError";
  }
}

const encoder = new TextEncoder();

/** HMAC-SHA256 of `payload` (UTF-8) under `key`: our signature keys with the secret's text, Standard Webhooks with its bytes. */
async function hmacSha256(key: BufferSource, payload: string): Promise<Uint8Array> {
  const hmac = await crypto.subtle.importKey("raw", key, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  return new Uint8Array(await crypto.subtle.sign("HMAC", hmac, encoder.encode(payload)));
}

async function hmacHex(secret: string, payload: string): Promise<string> {
  return Array.from(await hmacSha256(encoder.encode(secret), payload), (b) => b.toString(16).padStart(2, "0")).join("");
}

/** Constant time for equal lengths: where two signatures differ must not show in how long the comparison takes. */
function sameText(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

/**
 * The signature header for `body` sent at `timestampSeconds`. Several
 * secrets (a rotation's new and old one) give one `v1=` each, newest first.
 */
export async function signWebhook(body: string, secret: string | readonly string[], timestampSeconds: number): Promise<string> {
  const t = Math.floor(timestampSeconds);
  const secrets = typeof secret === "string" ? [secret] : secret;
  const signatures = await Promise.all(secrets.map((s) => hmacHex(s, `${t}.${body}`)));
  return [`t=${t}`, ...signatures.map((v) => `v1=${v}`)].join(",");
}

/** How every signing secret begins (Standard Webhooks' convention); standard base64 of its bytes follows. */
export const SIGNING_SECRET_PREFIX = "whsec_";

/** The key a `whsec_` secret stands for: the bytes its base64 encodes (secrets made before 2026-11-26 use base64url). */
function standardKey(secret: string): Uint8Array<ArrayBuffer> {
  const text = (secret.startsWith(SIGNING_SECRET_PREFIX) ? secret.slice(SIGNING_SECRET_PREFIX.length) : secret).replace(/-/g, "+").replace(/_/g, "/");
  return Uint8Array.from(atob(text.padEnd(Math.ceil(text.length / 4) * 4, "=")), (c) => c.charCodeAt(0));
}

/** The Standard Webhooks headers for event `id`'s `body` sent at `timestampSeconds`, one signature per secret. */
export async function standardWebhookHeaders(id: string, body: string, secrets: readonly string[], timestampSeconds: number): Promise<Record<string, string>> {
  const t = Math.floor(timestampSeconds);
  const signatures = await Promise.all(secrets.map((secret) => hmacSha256(standardKey(secret), `${id}.${t}.${body}`)));
  return {
    [STANDARD_WEBHOOK_HEADERS.id]: id,
    [STANDARD_WEBHOOK_HEADERS.timestamp]: String(t),
    [STANDARD_WEBHOOK_HEADERS.signature]: signatures.map((mac) => `v1,${btoa(String.fromCharCode(...mac))}`).join(" "),
  };
}

/**
 * Whether Standard Webhooks headers prove `body` was signed with `secret` (a `whsec_` secret, or the bare base64 of
 * its key) within `toleranceSeconds` of `now`: the check a receiver of another service's deliveries makes (PortOne's,
 * worker/domain/billing/gateway-webhooks.ts). Throws WebhookSignatureError saying what failed.
 */
export async function verifyStandardWebhook(
  body: string,
  headers: { get(name: string): string | null },
  secret: string,
  options: { toleranceSeconds?: number; now?: number } = {},
): Promise<void> {
  const id = headers.get(STANDARD_WEBHOOK_HEADERS.id);
  const timestamp = headers.get(STANDARD_WEBHOOK_HEADERS.timestamp);
  const signatures = headers.get(STANDARD_WEBHOOK_HEADERS.signature);
  if (!id || !timestamp || !signatures || !/^\d+$/.test(timestamp)) throw new WebhookSignatureError("Standard Webhooks headers are missing or malformed");
  const tolerance = options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  if (Math.abs((options.now ?? Date.now()) / 1000 - Number(timestamp)) > tolerance) throw new WebhookSignatureError(`signature timestamp is more than ${tolerance} seconds away from now`);
  const expected = (await standardWebhookHeaders(id, body, [secret], Number(timestamp)))[STANDARD_WEBHOOK_HEADERS.signature]!;
  if (!signatures.split(" ").some((candidate) => sameText(candidate, expected))) throw new WebhookSignatureError("no signature matches the body and secret");
}

function parseHeader(header: string): { t: number; v1: string[] } {
  let t = Number.NaN;
  const v1: string[] = [];
  for (const part of header.split(",")) {
    const [key, value] = part.trim().split("=", 2);
    if (key === "t" && value && /^\d+$/.test(value)) t = Number(value);
    else if (key === "v1" && value) v1.push(value);
  }
  return { t, v1 };
}

/**
 * The event `body` carries, once its signature header proves it came from
 * the service with `secret` (the exact body as received, before any JSON
 * parsing) and its timestamp is within `toleranceSeconds` of `now`.
 */
export async function verifyWebhook<T = WebhookEvent>(
  body: string,
  header: string | null | undefined,
  secret: string,
  options: { toleranceSeconds?: number; now?: number } = {},
): Promise<T> {
  if (!header) throw new WebhookSignatureError(`${SIGNATURE_HEADER} header is missing`);
  const { t, v1 } = parseHeader(header);
  if (!Number.isFinite(t) || v1.length === 0) throw new WebhookSignatureError(`${SIGNATURE_HEADER} header is malformed`);
  const tolerance = options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  const nowSeconds = (options.now ?? Date.now()) / 1000;
  if (Math.abs(nowSeconds - t) > tolerance) throw new WebhookSignatureError(`signature timestamp is more than ${tolerance} seconds away from now`);
  const expected = await hmacHex(secret, `${t}.${body}`);
  if (!v1.some((candidate) => sameText(candidate, expected))) throw new WebhookSignatureError("no signature matches the body and secret");
  try {
    return JSON.parse(body) as T;
  } catch {
    throw new WebhookSignatureError("signed body is not JSON");
  }
}
