import { malformed } from "../failure-text";
import type { Json } from "./portal-client";

/** Rows a list page holds: 50, the largest the sources ask for (S3, S4 "최대 50개"). */
export const PAGE_SIZE = 50;

export const pageInfo = (pageNum: number) => ({ pageNum, pageSize: PAGE_SIZE, totalCount: 0 });

/**
 * Every row of a paged list: `pageInfoVO.totalCount` says how many, each page must hold exactly its share
 * (S3's check), and the list key must be there; an answer that says otherwise is malformed, never a short result.
 */
export async function allRows(page: (pageNum: number) => Promise<Json>, listKey: string): Promise<Json[]> {
  const rows: Json[] = [];
  for (let pageNum = 1; ; pageNum++) {
    const answer = await page(pageNum);
    const total = Number((answer.pageInfoVO as Json | undefined)?.totalCount);
    if (!Number.isInteger(total) || total < 0) throw malformed(`${listKey}: answer without pageInfoVO.totalCount`);
    const list = answer[listKey];
    if (total === 0 && (list === undefined || list === null)) return rows;
    if (!Array.isArray(list)) throw malformed(`answer without ${listKey}`);
    const expected = Math.min(PAGE_SIZE, total - (pageNum - 1) * PAGE_SIZE);
    if (list.length !== Math.max(0, expected)) throw malformed(`${listKey}: page ${pageNum} holds ${list.length} rows, pageInfoVO says ${expected}`);
    rows.push(...(list as Json[]));
    if (pageNum * PAGE_SIZE >= total) return rows;
  }
}
