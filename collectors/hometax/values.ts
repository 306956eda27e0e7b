import { malformed } from "../kit/failure-text";
import { kstIso } from "../../contracts/korean-time";

/** The portal's values, read strictly: an answer whose value is not what the field holds is malformed, never a wrong record. */

/** An amount: a JSON number, or a string with optional `,` grouping and sign (S3 `integer()`). */
export function amount(value: unknown, field: string): number {
  if (typeof value === "number" && Number.isFinite(value)) return value;
  if (typeof value === "string" && /^-?[\d,]+(\.\d+)?$/.test(value.trim())) return Number(value.trim().replace(/,/g, ""));
  throw malformed(`${field} is not an amount`);
}

export function optionalAmount(value: unknown, field: string): number | null {
  return value === null || value === undefined || value === "" ? null : amount(value, field);
}

/** Text as the portal sent it, Korean untouched; blank is null. */
export function text(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  const s = String(value).trim();
  return s === "" ? null : s;
}

/** `YYYYMMDD` (hyphens or dots tolerated, a time part ignored) to the spec's `YYYY-MM-DD`. */
export function optionalDate(value: unknown, field: string): string | null {
  const digits = text(value)?.replace(/\D/g, "");
  if (!digits) return null;
  if (digits.length < 8 || Number.isNaN(Date.parse(`${digits.slice(0, 4)}-${digits.slice(4, 6)}-${digits.slice(6, 8)}`))) throw malformed(`${field} is not a date`);
  return `${digits.slice(0, 4)}-${digits.slice(4, 6)}-${digits.slice(6, 8)}`;
}

export function date(value: unknown, field: string): string {
  return optionalDate(value, field) ?? (() => { throw malformed(`${field} is missing`); })();
}

/** A Korean-time timestamp (`YYYY-MM-DD HH:MM:SS`, `YYYYMMDDHHMMSS`, or minutes only) as ISO 8601 with +09:00. */
export function kstDateTime(value: unknown, field: string): string {
  const digits = text(value)?.replace(/\D/g, "") ?? "";
  if (digits.length !== 12 && digits.length !== 14) throw malformed(`${field} is not a date-time`);
  const d = digits.padEnd(14, "0");
  return kstIso(`${date(d.slice(0, 8), field)}T${d.slice(8, 10)}:${d.slice(10, 12)}:${d.slice(12, 14)}`);
}

/** Business number: the 10 digits of `NNN-NN-NNNNN`; another identifier (a masked resident number) is none. */
export function businessNumber(value: unknown): string | null {
  const digits = text(value)?.replace(/-/g, "") ?? "";
  return /^\d{10}$/.test(digits) ? digits : null;
}

/** Windows of at most `months` calendar months covering [start, end], for list queries the portal limits by period. */
export function windows(start: string, end: string, months: number): { start: string; end: string }[] {
  const out: { start: string; end: string }[] = [];
  let from = new Date(`${start}T00:00:00Z`);
  const last = new Date(`${end}T00:00:00Z`);
  while (from <= last) {
    // The same day `months` later (clamped to that month's last day), less one: never past the limit, whatever the month lengths.
    const daysThen = new Date(Date.UTC(from.getUTCFullYear(), from.getUTCMonth() + months + 1, 0)).getUTCDate();
    const limit = new Date(Date.UTC(from.getUTCFullYear(), from.getUTCMonth() + months, Math.min(from.getUTCDate(), daysThen) - 1));
    const to = limit < last ? limit : last;
    out.push({ start: from.toISOString().slice(0, 10), end: to.toISOString().slice(0, 10) });
    from = new Date(to.getTime() + 86_400_000);
  }
  return out;
}

export const compact = (isoDate: string) => isoDate.replace(/-/g, "");

/**
 * A cash receipt's `trsClNm` (`거래구분` in the download) names a cancellation `취소거래` (S8, S12; sheet A3); the
 * download's wording is not shown, so any label with `취소` counts.
 */
export const isCancellation = (transactionType: string | null) => transactionType !== null && transactionType.includes("취소");

/**
 * An amount of a cancellation as the records carry it: negative, so a receipt and its cancellation net to zero as
 * Hometax's own total does (S12). S8 sees cancellations arrive positive and negates them; whether the portal ever
 * sends them negative is open (sheet A8 q.3), so an amount already negative is kept, never negated twice.
 */
export const cancelled = (value: number) => (value === 0 ? 0 : -Math.abs(value));
