import { malformed } from "../kit/failure-text";
import { optionalAmount, text } from "./values";

/**
 * Numbers of the extension schemas, read so that the record holds exactly what the portal sent: amounts in whole won
 * (KRW has no minor unit), and quantities and unit prices with the digits a JSON number keeps exactly.
 */

export function optionalWon(value: unknown, field: string): number | null {
  const n = optionalAmount(value, field);
  if (n !== null && !Number.isSafeInteger(n)) throw malformed(`${field} is not whole won`);
  return n;
}

export function won(value: unknown, field: string): number {
  return optionalWon(value, field) ?? (() => { throw malformed(`${field} is missing`); })();
}

/** Past 15 significant digits a double may no longer be the decimal the portal wrote. */
const MAX_SIGNIFICANT_DIGITS = 15;

/** A quantity or unit price: a fraction and a sign are allowed (A5), more digits than a number holds exactly are not. */
export function optionalDecimal(value: unknown, field: string): number | null {
  const n = optionalAmount(value, field);
  if (n === null) return null;
  const digits = (text(value) ?? "").replace(/[^\d.]/g, "");
  const significant = (digits.includes(".") ? digits.replace(/0+$/, "") : digits).replace(".", "").replace(/^0+/, "");
  if (significant.length > MAX_SIGNIFICANT_DIGITS) throw malformed(`${field} has more digits than a number keeps`);
  return n;
}
