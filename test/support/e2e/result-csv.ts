import { expect } from "vitest";
import { parseCsv } from "../parse-csv";
import type { client } from "./stack";

/** A job's results.csv as the API serves it: its content type and UTF-8 BOM checked, then its rows. */
export async function csvRows(api: ReturnType<typeof client>, id: string): Promise<string[][]> {
  const response = await api.request("GET", `/api/v1/data-jobs/${id}/results.csv`);
  expect(response.headers.get("Content-Type")).toBe("text/csv;charset=UTF-8");
  const bytes = new Uint8Array(await response.arrayBuffer());
  expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  return parseCsv(new TextDecoder().decode(bytes.slice(3)));
}
