/**
 * What a request log keeps of a request's query, body and error envelope (docs/request-logs.md, "Redaction"): the
 * shape and the harmless values, so a developer can see what was sent, and none of a secret, a credential or a
 * record. Removal is by field name, because a value alone cannot say whether it is a password; the few values that
 * announce themselves (a PEM block, one of our own secrets) are removed wherever they stand. Everything is bounded
 * too, so one row stays small whatever the request carried.
 */
export const REDACTED = "[REDACTED]";
export const TRUNCATED = "[TRUNCATED]";

/** Parts of a name that say its value is a secret or a piece of a credential. */
const SECRET_PARTS = ["password", "passwd", "passphrase", "secret", "token", "key", "cert", "credential", "signature", "authorization", "cookie"];
/**
 * Whole names (lower-cased, letters and digits only): what holds a credential's fields (any `fields` object) or records,
 * and names too short to look for inside other names ("pin" is in "mapping").
 */
const SECRET_NAMES = new Set(["fields", "records", "record", "pin", "otp", "pfx", "p12", "der", "pem", "jwk", "loginid", "userid", "residentnumber", "rrn", "ssn"]);
/** Values that are secrets whatever their field: a PEM block, an API key, a webhook signing secret. */
const SECRET_VALUE = /-----BEGIN |^(sk|whsec)_[A-Za-z0-9_-]{16,}/;

const MAX_DEPTH = 6;
const MAX_ENTRIES = 50;
const MAX_STRING = 500;

const normalized = (name: string) => name.toLowerCase().replace(/[^a-z0-9]/g, "");

/** Whether a field of this name is removed whatever it holds. */
function isSecretName(name: string): boolean {
  const n = normalized(name);
  return SECRET_NAMES.has(n) || SECRET_PARTS.some((part) => n.includes(part));
}

/** `value` with every secret-named field's value replaced by REDACTED, cut to the log's bounds. */
export function redact(value: unknown, depth = 0): unknown {
  if (typeof value === "string") {
    if (SECRET_VALUE.test(value)) return REDACTED;
    return value.length > MAX_STRING ? `${value.slice(0, MAX_STRING)}…` : value;
  }
  if (value === null || typeof value !== "object") return value;
  if (depth >= MAX_DEPTH) return TRUNCATED;
  if (Array.isArray(value)) return value.slice(0, MAX_ENTRIES).map((item) => redact(item, depth + 1));
  return Object.fromEntries(
    Object.entries(value)
      .slice(0, MAX_ENTRIES)
      .map(([name, field]) => [name.slice(0, MAX_STRING), isSecretName(name) ? REDACTED : redact(field, depth + 1)]),
  );
}
