import type { InstitutionResponse } from "../adapter";
import { malformed } from "../kit/failure-text";
import { type Json, PortalClient } from "./portal-client";

/** Rows a download page holds (S1 2064dfa; the first version asked 10000 in one page). */
export const DOWNLOAD_PAGE_SIZE = 1000;

/**
 * A list's download (a text table; the invoices' also a workbook, invoice-workbook.ts): the page's form
 * `downloadParam=<JSON>&actionId&screenId&noopen=False&downloadView=Y` posted to the site's bare `wqAction.do` (S1 4881e05, 420dfdf, PR #5; sheet A2). S1 sends no integrity suffix on it.
 * A JSON answer is the portal refusing (its `resultMsg`, mapped), never a file.
 */
export async function download(client: PortalClient, site: string, actionId: string, screenId: string, param: Json): Promise<InstitutionResponse> {
  const body = new URLSearchParams({ downloadParam: JSON.stringify(param), actionId, screenId, noopen: "False", downloadView: "Y" }).toString();
  const answer = await client.request(`${site}/wqAction.do`, { method: "POST", headers: { "Content-Type": "application/x-www-form-urlencoded; charset=UTF-8" }, body });
  if (answer.text.trimStart().startsWith("{")) {
    PortalClient.checkResult(PortalClient.json(answer));
    throw malformed(`${actionId} download answered JSON instead of a file`);
  }
  return answer;
}

export async function downloadText(client: PortalClient, site: string, actionId: string, screenId: string, param: Json): Promise<string> {
  return (await download(client, site, actionId, screenId, param)).text;
}

/** The columns a layout must have: `exactly` these (no other), or `atLeast` these (the others unknown to the sources). */
export type Columns = { exactly: readonly string[] } | { atLeast: readonly string[] };

/**
 * The tab-separated table of a download (UTF-8, S1): `skip` lines before the header line, then one row a line, each
 * with as many cells as the header. A header without the columns the sources show, a row of another width or a
 * blank line between rows is a layout this adapter does not know: malformed, never a guessed record.
 */
export function readTable(text: string, skip: number, columns: Columns, list: string): Record<string, string>[] {
  const lines = text.replace(/^\uFEFF/, "").split(/\r?\n/);
  while (lines.length > 0 && lines[lines.length - 1]!.trim() === "") lines.pop();
  if (lines.length <= skip) throw malformed(`${list}: download without its ${skip + 1} header lines`);
  const header = lines[skip]!.split("\t").map((cell) => cell.trim());
  const wanted = "exactly" in columns ? columns.exactly : columns.atLeast;
  const missing = wanted.filter((name) => header.filter((cell) => cell === name).length !== 1);
  const unknown = "exactly" in columns ? header.filter((cell) => !wanted.includes(cell)) : [];
  if (missing.length > 0 || unknown.length > 0) throw malformed(`${list}: download header ${JSON.stringify(header)} is not the known layout`);
  return lines.slice(skip + 1).map((line, i) => {
    const cells = line.split("\t");
    if (cells.length !== header.length) throw malformed(`${list}: download row ${i + 1} has ${cells.length} cells, the header ${header.length}`);
    return Object.fromEntries(header.map((name, c) => [name, cells[c]!.trim()]));
  });
}
