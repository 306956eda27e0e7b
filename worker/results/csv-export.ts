import type { z } from "zod";
import { recordLines } from "./record-lines";

const BOM = "\uFEFF";
// Spreadsheets run a cell starting with these as a formula.
const FORMULA_START = /^[=+\-@\t\r]/;

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
  let text = typeof value === "string" ? value : String(value);
  if (typeof value === "string" && FORMULA_START.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

function csvRow(cells: unknown[]): string {
  return `${cells.map(csvCell).join(",")}\r\n`;
}

/** RFC 4180 CSV with a byte-order mark, so spreadsheet software reads the Korean as UTF-8. */
export async function* csvResults(bucket: R2Bucket, jobId: string, record: z.ZodObject, unitIndexes: number[]): AsyncGenerator<string> {
  const columns = csvColumns(record);
  yield BOM + csvRow(columns.map((c) => c.label));
  for await (const line of recordLines(bucket, jobId, unitIndexes)) {
    const parsed = JSON.parse(line) as Record<string, unknown>;
    yield csvRow(columns.map((c) => parsed[c.key]));
  }
}
