import type { AdapterContext, BrowserPage } from "../adapter";
import type { RawRecord, TaskUnit } from "../../contracts/task-unit";
import { ProviderFailure } from "../adapter";
import { parseAmount, parseKstDateTime } from "../kit/display-values";
import { malformed } from "../kit/failure-text";
import { askOnInquiryPage } from "../kit/inquiry-page";
import { open, press, settle } from "../kit/page-state";
import { failureFromText } from "./failures";
import { closeNoticeLayer } from "./notice-layer";

// The 조회 button is enabled once the page has asked for its notices and listed the cards.
const FORM_READY = `location.pathname.endsWith("/approvals") && document.getElementById("btnInquiry")?.disabled === false`;
const batchLoaded = (batch: number) => `document.querySelector("#result")?.dataset.state === "done" && document.querySelector("#result")?.dataset.batch === "${batch}"`;
const READ_ROWS = `[...document.querySelectorAll("#approvalTable tbody tr")].map((tr) => Object.fromEntries([...tr.children].map((td) => [td.className, td.textContent])))`;

const STATUSES: Record<string, string> = { 승인: "APPROVED", 취소: "CANCELLED", 부분취소: "PARTIALLY_CANCELLED", 거절: "DECLINED" };
const STAGES: Record<string, string> = { 매입: "CAPTURED", 미매입: "AUTHORIZED" };
const AREAS: Record<string, boolean> = { 국내: false, 해외: true };

function payment(label: string): { paymentMethod: string; installmentMonths: number | null } {
  const months = /^할부 (\d+)개월$/.exec(label);
  if (months) return { paymentMethod: "INSTALLMENT", installmentMonths: Number(months[1]) };
  return { paymentMethod: label === "일시불" ? "SINGLE_PAYMENT" : label === "체크" ? "CHECK" : "OTHER", installmentMonths: null };
}

/** A history row back to the record: blanks are nulls, labels are the spec's values, "-" or a label the adapter does not know is UNKNOWN. */
function toRecord(row: Record<string, string | null>): RawRecord {
  const cell = (key: string) => {
    const text = row[key];
    if (text === undefined || text === null) throw malformed(`approval row without ${key}`);
    return text.trim();
  };
  const required = (key: string) => {
    const text = cell(key);
    if (!text) throw malformed(`approval row with a blank ${key}`);
    return text;
  };
  const optional = (key: string) => cell(key) || null;
  const overseas = AREAS[cell("area")];
  if (overseas === undefined) throw malformed(`unknown area "${cell("area")}"`);
  const settled = parseAmount(required("amount"));
  const local = optional("local");
  const original = local === null ? null : parseAmount(local);
  const vat = optional("vat");
  return {
    approvalNumber: required("approvalNo"),
    approvedAt: parseKstDateTime(required("at")),
    cardNumberMasked: required("card"),
    ...payment(required("method")),
    lifecycleStage: STAGES[cell("stage")] ?? "UNKNOWN",
    merchantAddress: optional("address"),
    merchantBusinessIdentifier: optional("bizNo")?.replace(/-/g, "") ?? null,
    merchantBusinessType: optional("bizType"),
    merchantContactNumber: optional("phone"),
    merchantName: required("merchant"),
    merchantRepresentativeName: optional("rep"),
    originalAmount: original?.value ?? null,
    originalCurrencyCode: original?.currency ?? null,
    overseas,
    settledAmount: settled.value,
    settledCurrencyCode: settled.currency,
    status: STATUSES[cell("status")] ?? "UNKNOWN",
    taxAmount: vat === null ? null : parseAmount(vat).value,
    transactionIdentifier: required("tid"),
  };
}

/** One card over one date window (at most the issuer's 90 days), every 더보기 batch. */
export async function approvalRecords(page: BrowserPage, unit: TaskUnit, ctx: AdapterContext): Promise<RawRecord[]> {
  const { target, segment } = unit;
  if (!target || !segment) throw malformed("approval unit needs a card and a date window");
  const openInquiry = async () => {
    await open(page, new URL("approvals", ctx.baseUrl).toString(), ctx);
    await settle(page, FORM_READY, ctx, failureFromText);
    await closeNoticeLayer(page, ctx);
  };
  return askOnInquiryPage(page, { path: "/approvals", result: "#result", mark: "batch", table: "#approvalTable", open: openInquiry }, async () => {
    // Options carry the site's own card keys; the masked number is only in their text.
    const option = (await page.evaluate(`[...document.querySelectorAll("#cardSelect option")].find((o) => o.textContent.endsWith(" " + ${JSON.stringify(target.id)}))?.value ?? ""`)) as string;
    if (!option) throw new ProviderFailure("INVALID_CARD_FOR_SERVICE", `the issuer does not show ${target.id}`);
    await page.select("#cardSelect", option);
    const dotted = (date: string) => JSON.stringify(date.replace(/-/g, "."));
    await page.evaluate(`document.getElementById("startDate").value = ${dotted(segment.start)}; document.getElementById("endDate").value = ${dotted(segment.end)};`);
    await press(page, "#btnInquiry");
    for (let batch = 1; ; batch++) {
      await settle(page, batchLoaded(batch), ctx, failureFromText);
      if (!((await page.evaluate(`!document.getElementById("btnMore").hidden`)) as boolean)) break;
      await press(page, "#btnMore");
    }
    const rows = (await page.evaluate(READ_ROWS)) as Record<string, string | null>[];
    // The site states its total; a mismatch means rows were lost between batches.
    const total = Number(await page.evaluate(`document.getElementById("totalCount").textContent`));
    if (total !== rows.length) throw malformed(`issuer reports ${total} approvals, read ${rows.length}`);
    return rows.map(toRecord);
  });
}
