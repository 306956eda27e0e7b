import { isValidBusinessNumber } from "../../../contracts/business-number";
import { ApiError, fieldError } from "../../platform/errors/api-error";

/** The longest business number a request may send: `123-45-67890` is 12 characters, with room for surrounding spaces. */
export const BUSINESS_NUMBER_INPUT_MAX = 32;

/** `123-45-67890` or `1234567890` → the ten digits, or INVALID_BUSINESS_REGISTRATION_NUMBER. */
export function parseBusinessNumber(value: string, field: string): string {
  const digits = /^\d{3}-?\d{2}-?\d{5}$/.test(value.trim()) ? value.replace(/\D/g, "") : "";
  if (!isValidBusinessNumber(digits)) {
    throw new ApiError("INVALID_BUSINESS_REGISTRATION_NUMBER", { fieldErrors: [fieldError(field, "INVALID_BUSINESS_REGISTRATION_NUMBER")] });
  }
  return digits;
}
