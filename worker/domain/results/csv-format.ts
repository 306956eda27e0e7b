import type { z } from "zod";

// Spreadsheets run a cell starting with these as a formula; Korean spreadsheet software takes the full-width
// forms (U+FF1D, U+FF0B, U+FF0D, U+FF20) as the same operators.
const FORMULA_START = /^[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/;
const NEEDS_QUOTES = /[",\r\n]/;

export interface CsvColumn {
  key: string;
  label: string;
}

/** Columns in record-field order, headed by each field's Korean display label. */
export function csvColumns(record: z.ZodObject): CsvColumn[] {
  return Object.entries(record.shape).map(([key, field]) => ({
    key,
    label: ((field as z.ZodType).meta()?.title as string | undefined) ?? key,
  }));
}

export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return "";
  // Numbers and booleans never need quoting, and a leading minus on a number is data, not a formula.
  if (typeof value !== "string") return String(value);
  const text = FORMULA_START.test(value) ? `'${value}` : value;
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** RFC 4180 rows with CRLF endings. */
export function csvRows(rows: unknown[][]): string {
  let out = "";
  for (const cells of rows) out += `${cells.map(csvCell).join(",")}\r\n`;
  return out;
}

export function csvRecordRows(columns: CsvColumn[], records: Record<string, unknown>[]): string {
  return csvRows(records.map((record) => columns.map((c) => record[c.key])));
}
