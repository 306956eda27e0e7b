import type { DateSegment, RawRecord } from "../adapter";
import { CARD_PURCHASES } from "../kit/business-card-approvals";
import { malformed } from "../kit/failure-text";
import { siteBusiness } from "./business-choice";
import { optionalWon, won } from "./exact-numbers";
import { TECR } from "./hosts";
import { allRows, pageInfo } from "./paging";
import type { Json } from "./portal-client";
import type { HometaxSession } from "./session";
import { businessNumber, compact, date, text, windows } from "./values";

/** The desktop list on tecr and its screen, also the hop's (A4: S1, S8). */
const ACTION = "ATECRCCA001R06";
const SCREEN = "UTECRCB023";

/** S8's minimal body on the current site (A4); `prhTxamtDdcYn` "all": deductible or not. */
function listBody(tin: string, window: { start: string; end: string }, pageNum: number): Json {
  return { tin, trsDtRngStrt: compact(window.start), trsDtRngEnd: compact(window.end), prhTxamtDdcYn: "all", sumTotaTrsAmt: "", resultCd: "", pageInfoVO: pageInfo(pageNum) };
}

/** The row's serial (`busnCrdcTrsBrkdSn`), what S1 takes for its approval number: the paging checks' key. */
const serialOf = (row: Json) => text(row.busnCrdcTrsBrkdSn) ?? "";

function record(schema: string, row: Json): RawRecord {
  const serial = text(row.busnCrdcTrsBrkdSn);
  const card = text(row.busnCrdCardNoEncCntn);
  if (!serial || !card) throw malformed("a business-card purchase without busnCrdcTrsBrkdSn or busnCrdCardNoEncCntn");
  const supplyAmount = won(row.splCft, "splCft");
  // A blank VAT is a tax-exempt merchant's (S8): none charged.
  const taxAmount = optionalWon(row.vaTxamt, "vaTxamt") ?? 0;
  const tip = optionalWon(row.tip, "tip");
  const totalAmount = won(row.totaTrsAmt, "totaTrsAmt");
  // S3 requires it of every row: a row whose parts are not its total is not one to pass on.
  if (supplyAmount + taxAmount + (tip ?? 0) !== totalAmount) throw malformed(`card purchase ${serial}: splCft + vaTxamt + tip is not totaTrsAmt`);
  return {
    schema,
    transactionIdentifier: serial,
    transactionDate: date(text(row.aprvDt) ?? text(row.trsDt), "aprvDt"),
    cardNumberMasked: card,
    cardCompany: text(row.crcmClNm),
    merchantName: text(row.mrntTxprNm),
    // The …EncCntn fields may hold a resident number or ciphertext (A4): only a business number's format is taken as one.
    merchantBusinessIdentifier: businessNumber(row.mrntTxprDscmNoEncCntn),
    merchantClassification: text(row.bmanClNm),
    businessTypeCode: text(row.tfbCd),
    businessTypeName: text(row.bcNm),
    businessItemName: text(row.tfbNm),
    supplyAmount,
    taxAmount,
    tip,
    totalAmount,
    deductible: text(row.ddcYnNm),
    deductionClassificationCode: text(row.vatDdcClCd),
    deductionClassificationName: text(row.vatDdcClNm),
  };
}

/** The business-card purchases of a period: each window of it, every page of `busnCrdcTrsBrkdAdmDVOList` (A4). */
export async function businessCardPurchaseRecords(session: HometaxSession, period: DateSegment): Promise<RawRecord[]> {
  const { tin } = await siteBusiness(session, TECR, SCREEN);
  const records: RawRecord[] = [];
  for (const window of windows(period.start, period.end, session.client.options.queryMonths)) {
    const rows = await allRows((pageNum) => session.client.action(TECR, ACTION, SCREEN, listBody(tin, window, pageNum)), "busnCrdcTrsBrkdAdmDVOList", serialOf);
    records.push(...rows.map((row) => record(CARD_PURCHASES, row)));
  }
  return records;
}
