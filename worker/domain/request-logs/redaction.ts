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

/**
 * A run of 12-19 digits, single spaces or hyphens between them allowed, that is not part of a longer run: the shape
 * of a payment card number (ISO/IEC 7812). Only those that also pass Luhn's check are masked (cardMasked).
 */
const DIGIT_RUN = /(?<!\d[ -]?)\d(?:[ -]?\d){11,18}(?![ -]?\d)/g;

function passesLuhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
  }
  return sum % 10 === 0;
}

/**
 * `text` with every card number in it cut to its last four digits. By value, not by name: a card number is as much a
 * secret in a memo field, a query or an error as in `cardNumber`, and it announces itself by its checksum. An account
 * number of that length that happens to pass Luhn is masked too: the log would rather lose a digit than keep a card.
 */
export function cardMasked(text: string): string {
  return text.replace(DIGIT_RUN, (run) => {
    const digits = run.replace(/[ -]/g, "");
    return passesLuhn(digits) ? `[CARD ****${digits.slice(-4)}]` : run;
  });
}

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
    const masked = cardMasked(value);
    return masked.length > MAX_STRING ? `${masked.slice(0, MAX_STRING)}…` : masked;
  }
  // A card number sent as a JSON number is still a card number; one past 2^53 has lost its last digits to the parse,
  // so its checksum says nothing and it is removed whole.
  if (typeof value === "number" && Number.isInteger(value)) {
    if (!Number.isSafeInteger(value)) return REDACTED;
    const masked = cardMasked(String(value));
    return masked === String(value) ? value : masked;
  }
  if (value === null || typeof value !== "object") return value;
  if (depth >= MAX_DEPTH) return TRUNCATED;
  if (Array.isArray(value)) return value.slice(0, MAX_ENTRIES).map((item) => redact(item, depth + 1));
  return Object.fromEntries(
    Object.entries(value)
      .slice(0, MAX_ENTRIES)
      .map(([name, field]) => [cardMasked(name).slice(0, MAX_STRING), isSecretName(name) ? REDACTED : redact(field, depth + 1)]),
  );
}
