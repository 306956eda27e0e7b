import { malformed } from "../failure-text";
import { TEET } from "./hosts";
import { checkedPages } from "./paging";
import type { Json, PortalClient } from "./portal-client";
import { DOWNLOAD_PAGE_SIZE, downloadText, readTable } from "./text-download";
import { optionalDate, text } from "./values";

const etanOf = (value: unknown) => text(value)?.replace(/-/g, "") ?? "";

/**
 * The JSON pages of one tax-invoice query against the text download of the same filter (`ATEETBDA005R04`, S1
 * 4881e05; sheet A2): the same approval numbers, each with the same send date, or the unit is malformed. Only
 * `승인번호` (hyphenated) and `전송일자` are known columns of the txt, after 4 lines S1 skips (sheet A8 q.4), so
 * they are all it is read for; the records stay those of the JSON pages. S1 downloads nothing when the count is 0.
 */
export async function checkAgainstDownload(client: PortalClient, filter: Json, rows: Json[]): Promise<void> {
  const total = rows.length;
  if (total === 0) return;
  const list = "ATEETBDA005R04 download";
  const param = (pageNum: number): Json => {
    const page = { pageSize: DOWNLOAD_PAGE_SIZE, pageNum, totalCount: total };
    return { cstnInfoYn: "", fleDwldYn: "Y", fleTp: "txt", icldCstnBmanInfr: "", icldLsatInfr: "", resnoSecYn: "Y", srtClCd: "1", srtOpt: "01", affectedCnt: 0, pageInfoVO: page, excelPageInfoVO: page, etxivIsnBrkdTermDVOPrmt: filter };
  };
  const downloaded = await checkedPages(
    list,
    DOWNLOAD_PAGE_SIZE,
    async (pageNum) => ({ total, rows: readTable(await downloadText(client, TEET, "ATEETBDA005R04", "UTEETBDA01", param(pageNum)), 4, { atLeast: ["승인번호", "전송일자"] }, list) }),
    (row) => etanOf(row["승인번호"]),
  );
  const sent = new Map(downloaded.map((row) => [etanOf(row["승인번호"]), optionalDate(row["전송일자"], "전송일자")]));
  for (const row of rows) {
    const etan = etanOf(row.etan);
    if (!sent.has(etan)) throw malformed(`${list}: invoice ${etan} of the JSON pages is not in the download`);
    if (sent.get(etan) !== optionalDate(row.tmsnDt, "tmsnDt")) throw malformed(`${list}: invoice ${etan} has another send date in the download`);
  }
}
