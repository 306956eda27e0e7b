import { z } from "@hono/zod-openapi";

/**
 * Field builders for record schemas. The `title` metadata is the Korean display
 * label: CSV headers and the published JSON Schema both read it from here.
 */
export const str = (title: string) => z.string().meta({ title });
export const nstr = (title: string) => z.string().nullable().meta({ title });
export const num = (title: string) => z.number().meta({ title });
export const nnum = (title: string) => z.number().nullable().meta({ title });
export const nint = (title: string) => z.number().int().nullable().meta({ title });
export const bool = (title: string) => z.boolean().meta({ title });
export const dateTime = (title: string) => z.iso.datetime({ offset: true }).meta({ title });
export const date = (title: string) => z.iso.date().meta({ title });
export const ndate = (title: string) => z.iso.date().nullable().meta({ title });
export const oneOf = <const T extends readonly [string, ...string[]]>(values: T, title: string) =>
  z.enum(values).meta({ title });
export const discriminator = <const S extends string>(schema: S) =>
  z.literal(schema).meta({ title: "스키마" });
