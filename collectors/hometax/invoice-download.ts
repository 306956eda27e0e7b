import { ProviderFailure } from "../adapter";
import { noteDegraded } from "../kit/degraded-paths";
import { malformed } from "../kit/failure-text";
import { TEET } from "./hosts";
import { checkedPages } from "./paging";
import type { Json, PortalClient } from "./portal-client";
import { DOWNLOAD_PAGE_SIZE, downloadText, readTable } from "./text-download";
import { optionalDate, text } from "./values";

const etanOf = (value: unknown) => text(value)?.replace(/-/g, "") ?? "";

/** The operators' name of the road around a refused or unreadable download (collectors/kit/degraded-paths.ts). */
export const DOWNLOAD_FALLBACK = "hometax.invoice-download-check";

/**
 * What makes the download unusable rather than a sign about the session: a refusal of the screen (`권한이 없는
 * 화면`, which no source says is the credential's), a login grade it does not take, an error answer, a layout this
 * adapter does not know. A throttle, a block, a stop page or an expired session is the portal's word on every
 * request, so it ends the unit as it would on the JSON pages.
 */
const UNUSABLE = new Set(["PROVIDER_ERROR", "PROVIDER_RESPONSE_MALFORMED", "LOGIN_FAILED", "UNKNOWN"]);

/** The download could not be read at all: the check is skipped, never the records. */
class DownloadUnusable extends Error {}

/**
 * The JSON pages of one tax-invoice query against the text download of the same filter (`ATEETBDA005R04`, S1
 * 4881e05; sheet A2): the same approval numbers, each with the same send date, or the unit is malformed. Only
 * `승인번호` (hyphenated) and `전송일자` are known columns of the txt, after 4 lines S1 skips (sheet A8 q.4), so
 * they are all it is read for; the records stay those of the JSON pages. S1 downloads nothing when the count is 0.
 * A download refused or unreadable leaves the JSON pages alone, with their own paging checks, as S3 reads them
 * (live 2026-09): counted and logged for operators, never a failure of a unit the pages collected.
 */
export async function checkAgainstDownload(client: PortalClient, filter: Json, rows: Json[]): Promise<void> {
  const total = rows.length;
  if (total === 0) return;
  const list = "ATEETBDA005R04 download";
  const param = (pageNum: number): Json => {
    const page = { pageSize: DOWNLOAD_PAGE_SIZE, pageNum, totalCount: total };
    return { cstnInfoYn: "", fleDwldYn: "Y", fleTp: "txt", icldCstnBmanInfr: "", icldLsatInfr: "", resnoSecYn: "Y", srtClCd: "1", srtOpt: "01", affectedCnt: 0, pageInfoVO: page, excelPageInfoVO: page, etxivIsnBrkdTermDVOPrmt: filter };
  };
  const readPage = async (pageNum: number) => {
    try {
      return readTable(await downloadText(client, TEET, "ATEETBDA005R04", "UTEETBDA01", param(pageNum)), 4, { atLeast: ["승인번호", "전송일자"] }, list);
    } catch (err) {
      if (err instanceof ProviderFailure && UNUSABLE.has(err.code)) throw new DownloadUnusable(`${err.code}: ${err.message}`);
      throw err;
    }
  };
  let downloaded: Json[];
  try {
    downloaded = await checkedPages(list, DOWNLOAD_PAGE_SIZE, async (pageNum) => ({ total, rows: await readPage(pageNum) }), (row) => etanOf(row["승인번호"]));
  } catch (err) {
    if (!(err instanceof DownloadUnusable)) throw err;
    noteDegraded(DOWNLOAD_FALLBACK, `${list} unusable, the JSON pages alone: ${err.message}`);
    return;
  }
  const sent = new Map(downloaded.map((row) => [etanOf(row["승인번호"]), optionalDate(row["전송일자"], "전송일자")]));
  for (const row of rows) {
    const etan = etanOf(row.etan);
    if (!sent.has(etan)) throw malformed(`${list}: invoice ${etan} of the JSON pages is not in the download`);
    if (sent.get(etan) !== optionalDate(row.tmsnDt, "tmsnDt")) throw malformed(`${list}: invoice ${etan} has another send date in the download`);
  }
}
