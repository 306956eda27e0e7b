import type { z } from "zod";
import { recordLineBatches } from "./record-lines";

const BOM = "\uFEFF";
// Spreadsheets run a cell starting with these as a formula.
const FORMULA_START = /^[=+\-@\t\r]/;
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

function csvRow(cells: unknown[]): string {
  return `${cells.map(csvCell).join(",")}\r\n`;
}

/** RFC 4180 CSV with a byte-order mark, so spreadsheet software reads the Korean as UTF-8. */
export async function* csvResults(bucket: R2Bucket, jobId: string, record: z.ZodObject, unitIndexes: number[]): AsyncGenerator<string> {
  const columns = csvColumns(record);
  yield BOM + csvRow(columns.map((c) => c.label));
  for await (const lines of recordLineBatches(bucket, jobId, unitIndexes)) {
    let rows = "";
    for (const line of lines) {
      const parsed = JSON.parse(line) as Record<string, unknown>;
      rows += csvRow(columns.map((c) => parsed[c.key]));
    }
    yield rows;
  }
}
