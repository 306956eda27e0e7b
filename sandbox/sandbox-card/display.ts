import { showAmount } from "../amounts";
import type { ApprovalLine } from "./approvals";
import type { Card } from "./cards";
import { shownBusinessNumber } from "../../contracts/business-number";

const KIND_LABELS: Record<Card["kind"], string> = { CREDIT: "신용", CHECK: "체크" };
const STATE_LABELS: Record<Card["state"], string> = { ACTIVE: "정상", SUSPENDED: "정지", EXPIRED: "만료" };
const STATUS_LABELS: Record<ApprovalLine["status"], string> = { APPROVED: "승인", CANCELLED: "취소", PARTIALLY_CANCELLED: "부분취소", DECLINED: "거절", UNKNOWN: "-" };
const STAGE_LABELS: Record<ApprovalLine["lifecycleStage"], string> = { CAPTURED: "매입", AUTHORIZED: "미매입", UNKNOWN: "-" };

function paymentLabel(line: ApprovalLine): string {
  if (line.paymentMethod === "INSTALLMENT") return `할부 ${line.installmentMonths}개월`;
  return { SINGLE_PAYMENT: "일시불", CHECK: "체크", OTHER: "기타" }[line.paymentMethod];
}

/** A card as the issuer's card list shows it. */
export function shownCard(card: Card) {
  return { key: card.key, name: card.cardName, number: card.cardNumberMasked, kind: KIND_LABELS[card.kind], holder: card.holder, validThru: card.validThru, state: STATE_LABELS[card.state] };
}

/** An approval line as the issuer's history shows it: Korean labels, formatted amounts and numbers, blanks for nothing. */
export function shownApproval(line: ApprovalLine) {
  const n = line.merchantBusinessIdentifier;
  return {
    at: line.approvedAt.slice(0, 19).replace("T", " ").replace(/-/g, "."),
    card: line.cardNumberMasked,
    approvalNo: line.approvalNumber,
    merchant: line.merchantName,
    bizNo: n ? shownBusinessNumber(n) : "",
    bizType: line.merchantBusinessType ?? "",
    rep: line.merchantRepresentativeName ?? "",
    phone: line.merchantContactNumber ?? "",
    address: line.merchantAddress ?? "",
    area: line.overseas ? "해외" : "국내",
    method: paymentLabel(line),
    amount: showAmount(line.settledAmount, line.settledCurrencyCode),
    local: line.originalAmount === null ? "" : showAmount(line.originalAmount, line.originalCurrencyCode!),
    vat: line.taxAmount === null ? "" : showAmount(line.taxAmount, line.settledCurrencyCode),
    status: STATUS_LABELS[line.status],
    stage: STAGE_LABELS[line.lifecycleStage],
    tid: line.transactionIdentifier,
  };
}
