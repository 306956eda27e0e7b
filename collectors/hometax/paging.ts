import { malformed } from "../kit/failure-text";
import type { Json } from "./portal-client";

/** Rows a list page holds: 50, the largest the sources ask for (S3, S4 "최대 50개"). */
export const PAGE_SIZE = 50;

export const pageInfo = (pageNum: number) => ({ pageNum, pageSize: PAGE_SIZE, totalCount: 0 });

/** One page as a list answered it: the total it claimed and its rows. */
export interface Page<Row = Json> {
  total: number;
  rows: Row[];
}

/**
 * Every row of a list read page by page, checked as S3 checks invoice pages (sheet A2): the first page fixes the
 * total, and a later page that claims another total, holds other than its share of rows, repeats the page before
 * it, or brings back an approval number already read is malformed. The portal keeps no snapshot between pages
 * (S3), so a list that moved under the pages would otherwise give duplicate or missing records; malformed is retried.
 */
export async function checkedPages<Row extends object = Json>(list: string, pageSize: number, page: (pageNum: number) => Promise<Page<Row>>, approvalOf: (row: Row) => string): Promise<Row[]> {
  const rows: Row[] = [];
  const seen = new Map<string, number>();
  let total = 0;
  let previous = "";
  for (let pageNum = 1; pageNum === 1 || (pageNum - 1) * pageSize < total; pageNum++) {
    const answer = await page(pageNum);
    if (pageNum === 1) total = answer.total;
    else if (answer.total !== total) throw malformed(`${list}: totalCount changed from ${total} to ${answer.total} at page ${pageNum}`);
    const expected = Math.max(0, Math.min(pageSize, total - (pageNum - 1) * pageSize));
    if (answer.rows.length !== expected) throw malformed(`${list}: page ${pageNum} holds ${answer.rows.length} rows, totalCount says ${expected}`);
    if (answer.rows.some((row) => !row || typeof row !== "object" || Array.isArray(row))) throw malformed(`${list}: page ${pageNum} holds a row that is not an object`);
    const approvals = answer.rows.map(approvalOf);
    const signature = approvals.join("\n");
    if (pageNum > 1 && signature === previous) throw malformed(`${list}: page ${pageNum} repeats page ${pageNum - 1}`);
    previous = signature;
    for (const approval of approvals) {
      if (!approval) throw malformed(`${list}: a row of page ${pageNum} has no approval number`);
      const first = seen.get(approval);
      if (first !== undefined) throw malformed(`${list}: approval number ${approval} on page ${pageNum} was already on page ${first}`);
      seen.set(approval, pageNum);
    }
    rows.push(...answer.rows);
  }
  return rows;
}

/** The total a JSON list answer claims (`pageInfoVO.totalCount`); an answer without one is malformed. */
export function totalOf(answer: Json, list: string): number {
  const total = Number((answer.pageInfoVO as Json | undefined)?.totalCount);
  if (!Number.isInteger(total) || total < 0) throw malformed(`${list}: answer without pageInfoVO.totalCount`);
  return total;
}

/** Every row of a paged JSON list (`pageInfoVO`, the rows under `listKey`), with the checks of `checkedPages`. */
export function allRows(page: (pageNum: number) => Promise<Json>, listKey: string, approvalOf: (row: Json) => string): Promise<Json[]> {
  return checkedPages(listKey, PAGE_SIZE, async (pageNum) => {
    const answer = await page(pageNum);
    const total = totalOf(answer, listKey);
    const list = answer[listKey];
    if (total === 0 && (list === undefined || list === null)) return { total, rows: [] };
    if (!Array.isArray(list)) throw malformed(`answer without ${listKey}`);
    return { total, rows: list as Json[] };
  }, approvalOf);
}
