import { z } from "@hono/zod-openapi";
import { BankAccountRecord, BankTransactionRecord } from "../../collectors/records/bank";
import { CardApprovalRecord, CorporateCardRecord } from "../../collectors/records/card";
import {
  CashReceiptPurchaseRecord,
  CashReceiptSalesRecord,
  TaxInvoicePurchaseRecord,
  TaxInvoiceSalesRecord,
} from "../../collectors/records/taxportal";

const isoDate = z.iso.date().meta({ description: "YYYY-MM-DD" });

const dateRange = {
  dateRangeStart: isoDate.meta({ title: "조회 시작일", description: "YYYY-MM-DD, 포함" }),
  dateRangeEnd: isoDate.meta({ title: "조회 종료일", description: "YYYY-MM-DD, 포함" }),
};

const noParams = z.strictObject({});
const datedParams = z.strictObject(dateRange);

/**
 * What a schema collects: its params, its record type, and what a job fans
 * out over (accounts, cards, or nothing) when planning task units.
 */
export interface SchemaDefinition {
  id: string;
  title: string;
  params: z.ZodObject;
  record: z.ZodObject;
  /** Which discovered targets a job of this schema runs over; null = one unit per date segment only. */
  targets: "accounts" | "cards" | null;
  /** The param that narrows targets, if any. */
  targetFilterParam?: "accountNumber" | "cardNumberMasked";
  datedRange: boolean;
}

const DEFINITIONS: SchemaDefinition[] = [
  { id: "bank.accounts.cb.v1", title: "은행 계좌 목록", params: noParams, record: BankAccountRecord, targets: null, datedRange: false },
  {
    id: "bank.transactions.cb.v1",
    title: "은행 거래내역",
    params: z.strictObject({
      ...dateRange,
      accountNumber: z.array(z.string().min(1)).min(1).optional().meta({ title: "계좌번호 목록", description: "생략하면 조회 가능한 모든 계좌" }),
      currencyCode: z.string().regex(/^[A-Z]{3}$/).optional().meta({ title: "통화", description: "ISO 4217, 예: KRW" }),
    }),
    record: BankTransactionRecord,
    targets: "accounts",
    targetFilterParam: "accountNumber",
    datedRange: true,
  },
  { id: "taxportal.tax-invoices.sales.v1", title: "매출 세금계산서", params: datedParams, record: TaxInvoiceSalesRecord, targets: null, datedRange: true },
  { id: "taxportal.tax-invoices.purchase.v1", title: "매입 세금계산서", params: datedParams, record: TaxInvoicePurchaseRecord, targets: null, datedRange: true },
  { id: "taxportal.cash-receipts.sales.v1", title: "매출 현금영수증", params: datedParams, record: CashReceiptSalesRecord, targets: null, datedRange: true },
  { id: "taxportal.cash-receipts.purchase.v1", title: "매입 현금영수증", params: datedParams, record: CashReceiptPurchaseRecord, targets: null, datedRange: true },
  { id: "card.cards.corp.v1", title: "법인카드 목록", params: noParams, record: CorporateCardRecord, targets: null, datedRange: false },
  {
    id: "card.approvals.corp.v1",
    title: "법인카드 승인내역",
    params: z.strictObject({
      ...dateRange,
      cardNumberMasked: z.array(z.string().min(1)).min(1).optional().meta({ title: "카드번호 목록", description: "생략하면 모든 카드" }),
    }),
    record: CardApprovalRecord,
    targets: "cards",
    targetFilterParam: "cardNumberMasked",
    datedRange: true,
  },
];

const BY_ID = new Map(DEFINITIONS.map((d) => [d.id, d]));

export const SCHEMA_IDS = DEFINITIONS.map((d) => d.id);

export function allSchemas(): readonly SchemaDefinition[] {
  return DEFINITIONS;
}

export function findSchema(id: string): SchemaDefinition | undefined {
  return BY_ID.get(id);
}
