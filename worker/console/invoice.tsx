import { chargedAmount, getInvoice } from "../domain/billing/invoices";
import type { ConsoleContext } from "./context";
import { PLAN_NAMES } from "../domain/workspaces/plans";
import { workspaceRow } from "../domain/workspaces/store";
import { kstDate } from "../../contracts/korean-time";
import { INVOICE_STATUS } from "./billing";
import { VatRows, won } from "./amounts";
import { kst } from "../web/kst";
import { DataTable, Page } from "../web/layout";


/**
 * One invoice as a document: who is billed (the workspace and its business number), the period, the lines (the plan's
 * month, jobs past its allowance), 공급가액, 부가세 and 합계, the credits and the amount charged, and when it was paid.
 * `?download=1` hands the same page over as a file to keep.
 */
export async function showInvoice(c: ConsoleContext<"workspaceId" | "invoiceId">): Promise<Response> {
  const workspaceId = c.req.valid("param").workspaceId;
  const [invoice, workspace] = await Promise.all([getInvoice(c.env.DB, workspaceId, c.req.valid("param").invoiceId), workspaceRow(c.env.DB, workspaceId)]);
  const base = invoice.supplyAmount - invoice.overageAmount;
  const page = c.html(
    <Page title={`청구서 ${kst(invoice.createdAt)}`}>
      <dl id="invoice" data-invoice-id={invoice.id} data-status={invoice.status}>
        <dt>청구서 번호</dt>
        <dd>
          <code>{invoice.id}</code>
        </dd>
        <dt>공급받는 자</dt>
        <dd>
          {workspace?.name ?? ""} ({workspace?.businessNumber ?? "사업자등록번호 없음"})
        </dd>
        <dt>기간</dt>
        <dd>
          {kst(invoice.periodStart)} ~ {kst(invoice.periodEnd)}
        </dd>
        <dt>상태</dt>
        <dd>
          {INVOICE_STATUS[invoice.status]}
          {invoice.paidAt !== null && ` (${kst(invoice.paidAt)}, 거래 ${invoice.gatewayTransactionId ?? "크레딧"})`}
        </dd>
      </dl>
      <DataTable
        columns={["품목", "공급가액"]}
        foot={
          <>
            <VatRows supply={invoice.supplyAmount} vat={invoice.vatAmount} total={invoice.totalAmount} />
            <tr>
              <th scope="row">사용 크레딧</th>
              <td>{won(invoice.creditAmount)}</td>
            </tr>
            <tr>
              <th scope="row">카드 결제 금액</th>
              <td id="charged">{won(chargedAmount(invoice))}</td>
            </tr>
          </>
        }
      >
        {invoice.kind !== "OVERAGE" && (
          <tr>
            <td>데이터 수집 {PLAN_NAMES[invoice.plan]} 플랜 1개월</td>
            <td>{won(base)}</td>
          </tr>
        )}
        {invoice.overageJobs > 0 && (
          <tr>
            <td>포함량을 넘은 수집 작업 {invoice.overageJobs.toLocaleString("ko-KR")}건</td>
            <td>{won(invoice.overageAmount)}</td>
          </tr>
        )}
      </DataTable>
      <p>
        <a href={`?download=1`}>파일로 내려받기</a> · <a href={`/console/w/${workspaceId}/billing`}>결제로 돌아가기</a>
      </p>
    </Page>,
  );
  if (c.req.query("download") !== "1") return page;
  const response = await page;
  response.headers.set("Content-Disposition", `attachment; filename="invoice-${kstDate(invoice.createdAt)}-${invoice.id.slice(0, 8)}.html"`);
  return response;
}
