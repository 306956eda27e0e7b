import { malformed } from "../kit/failure-text";
import type { Json } from "./portal-client";
import { amount, optionalAmount, text } from "./values";

/** `etxivClCd` 03: 전자계산서, the tax-exempt invoice (S1; sheet A5). */
export const EXEMPT_KIND = "03";

/**
 * Supply, tax and total of a list row. A 계산서 (exempt) carries no VAT: S8 takes its supply from `totaAmt` and its
 * tax as 0 (sheet A5), which suggests `sumSplCft`/`sumTxamt` may be blank there (A8 q.5, open), so blanks are read
 * that way; tax is 0 because the record requires a number (spec, tax invoice records), and a 계산서 with a tax is
 * malformed. Every invoice's supply and tax add up to its total (S3).
 */
export function invoiceAmounts(kind: string, row: Json): { supplyAmount: number; taxAmount: number; totalAmount: number } {
  const totalAmount = amount(row.totaAmt, "totaAmt");
  const exempt = kind === EXEMPT_KIND;
  const supplyAmount = exempt ? (optionalAmount(row.sumSplCft, "sumSplCft") ?? totalAmount) : amount(row.sumSplCft, "sumSplCft");
  const taxAmount = exempt ? (optionalAmount(row.sumTxamt, "sumTxamt") ?? 0) : amount(row.sumTxamt, "sumTxamt");
  if (exempt && taxAmount !== 0) throw malformed(`a 계산서 (etxivClCd 03) with a tax of ${taxAmount}`);
  if (supplyAmount + taxAmount !== totalAmount) throw malformed(`invoice ${text(row.etan)}: supply and tax do not add up to the total`);
  return { supplyAmount, taxAmount, totalAmount };
}

/** Amendment reasons 01–06 (`etxivMdfRsnCd`, KEC `AmendmentStatusCode`) as NTS names them (S15; S14 and S3 the codes). */
const AMENDMENT_REASONS: Record<string, string> = {
  "01": "기재사항 착오정정",
  "02": "공급가액 변동",
  "03": "환입",
  "04": "계약의 해제",
  "05": "내국신용장 사후개설",
  "06": "착오에 의한 이중발급",
};

/** An amended invoice: `etxivMdfRsnCd` other than blank or `ZZ` (S3). */
export const isAmended = (head: Json) => {
  const reason = text(head.etxivMdfRsnCd);
  return reason !== null && reason !== "ZZ";
};

/**
 * The invoice's remark, and for an amended invoice its reason and original approval number (`tfstEtan`), which
 * the record schema has no field of its own for (spec, tax invoice records): `비고` is the one free-text field,
 * so they follow the portal's remark there, bracketed, e.g. `납품 [수정사유 01 기재사항 착오정정, 당초승인번호 …]`.
 */
export function remarkWithAmendment(head: Json): string | null {
  const own = text(head.etxivSq1RmrkCntn);
  if (!isAmended(head)) return own;
  const reason = text(head.etxivMdfRsnCd)!;
  const original = text(head.tfstEtan)?.replace(/-/g, "");
  const note = `[수정사유 ${reason}${AMENDMENT_REASONS[reason] ? ` ${AMENDMENT_REASONS[reason]}` : ""}${original ? `, 당초승인번호 ${original}` : ""}]`;
  return own ? `${own} ${note}` : note;
}
