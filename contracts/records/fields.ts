import { z } from "@hono/zod-openapi";

/**
 * The longest text a record field holds. Institutions' fields (names, addresses, remarks) are far shorter; a value past
 * this is not a field's value, and the record fails validation like any other malformed one. The API document states it
 * as every text field's maxLength.
 */
export const MAX_FIELD_LENGTH = 1000;
/** An ISO 8601 time with offset and fractions of a second. */
const MAX_DATETIME_LENGTH = 40;
/** Whole numbers in records (installment months) fit 32 bits. */
const INT32 = { min: -2_147_483_648, max: 2_147_483_647 };

/**
 * Field builders for record schemas. The `title` metadata is the Korean display
 * label: CSV headers and the published JSON Schema both read it from here.
 */
export const str = (title: string) => z.string().max(MAX_FIELD_LENGTH).meta({ title });
export const nstr = (title: string) => z.string().max(MAX_FIELD_LENGTH).nullable().meta({ title });
export const num = (title: string) => z.number().meta({ title });
export const nnum = (title: string) => z.number().nullable().meta({ title });
const whole32 = () => z.number().int().min(INT32.min).max(INT32.max);
/** A position counted from 1 (an invoice's line number). */
export const ordinal = (title: string) => whole32().min(1).meta({ title, format: "int32" });
export const nint = (title: string) => whole32().nullable().meta({ title, format: "int32" });
/**
 * Whole won, for the extension schemas: KRW has no minor unit, so an amount with a fraction is not
 * an amount (docs/institutions/hometax.md, "Extension schemas"); JSON numbers carry integers exactly up to 2^53.
 */
const wholeWon = () => z.number().int().min(-Number.MAX_SAFE_INTEGER).max(Number.MAX_SAFE_INTEGER);
export const won = (title: string) => wholeWon().meta({ title, format: "int64" });
export const nwon = (title: string) => wholeWon().nullable().meta({ title, format: "int64" });
export const bool = (title: string) => z.boolean().meta({ title });
export const dateTime = (title: string) => z.iso.datetime({ offset: true }).max(MAX_DATETIME_LENGTH).meta({ title });
export const date = (title: string) => z.iso.date().max(10).meta({ title });
export const ndate = (title: string) => z.iso.date().max(10).nullable().meta({ title });
export const oneOf = <const T extends readonly [string, ...string[]]>(values: T, title: string) =>
  z.enum(values).meta({ title });
export const discriminator = <const S extends string>(schema: S) =>
  z.literal(schema).meta({ title: "스키마" });
