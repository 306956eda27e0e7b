import { ApiError, fieldError } from "../errors/api-error";

const WEIGHTS = [1, 3, 7, 1, 3, 7, 1, 3, 5];

/** The longest business number a request may send: `123-45-67890` is 12 characters, with room for surrounding spaces. */
export const BUSINESS_NUMBER_INPUT_MAX = 32;

/** The check digit rule of Korean business registration numbers (사업자등록번호). */
export function isValidBusinessNumber(digits: string): boolean {
  if (!/^\d{10}$/.test(digits)) return false;
  const d = [...digits].map(Number);
  let sum = WEIGHTS.reduce((acc, w, i) => acc + w * d[i]!, 0);
  sum += Math.floor((d[8]! * 5) / 10);
  return (10 - (sum % 10)) % 10 === d[9];
}

/** `123-45-67890` or `1234567890` → the ten digits, or INVALID_BUSINESS_REGISTRATION_NUMBER. */
export function parseBusinessNumber(value: string, field: string): string {
  const digits = /^\d{3}-?\d{2}-?\d{5}$/.test(value.trim()) ? value.replace(/\D/g, "") : "";
  if (!isValidBusinessNumber(digits)) {
    throw new ApiError("INVALID_BUSINESS_REGISTRATION_NUMBER", { fieldErrors: [fieldError(field, "INVALID_BUSINESS_REGISTRATION_NUMBER")] });
  }
  return digits;
}
