import { z } from "@hono/zod-openapi";
import { BankAccountRecord, BankTransactionRecord } from "../../../contracts/records/bank";
import { BusinessStatusRecord } from "../../../contracts/records/business";
import { isValidBusinessNumber } from "../../../contracts/business-number";
import { CardApprovalRecord, CorporateCardRecord } from "../../../contracts/records/card";
import {
  BusinessCardPurchaseRecord,
  CashReceiptPurchaseRecord,
  CashReceiptSalesRecord,
  TaxInvoiceLineRecord,
  TaxInvoicePurchaseRecord,
  TaxInvoiceSalesRecord,
} from "../../../contracts/records/taxportal";

const isoDate = z.iso.date().meta({ description: "YYYY-MM-DD" });

/** The longest `since` token we issue is far shorter; a longer value is not one of ours. */
const MAX_SINCE_LENGTH = 512;

const dateRange = {
  dateRangeStart: isoDate.meta({ title: "조회 시작일", description: "YYYY-MM-DD, 포함" }),
  dateRangeEnd: isoDate.meta({ title: "조회 종료일", description: "YYYY-MM-DD, 포함" }),
  since: z
    .string()
    .min(1)
    .max(MAX_SINCE_LENGTH)
    .optional()
    .meta({
      title: "증분 기준",
      description:
        "같은 자격증명·schema로 성공한 작업의 since 값. 주면 그 작업 이후 바뀐 레코드만 change(added, modified, removed)와 함께 돌려줍니다 (확장 기능, docs/scheduling.md)",
    }),
};

const noParams = z.strictObject({});

/** The most numbers one business.status.v1 job takes: ten calls of the API's 100 (docs/institutions/nts-business-status.md). */
export const MAX_STATUS_NUMBERS = 1000;

const businessStatusParams = z.strictObject({
  businessNumbers: z
    .array(
      z
        .string()
        .regex(/^\d{10}$/, "사업자등록번호는 '-' 없이 숫자 10자리여야 합니다.")
        .refine(isValidBusinessNumber, "사업자등록번호의 검증번호(마지막 자리)가 맞지 않습니다."),
    )
    .min(1)
    .max(MAX_STATUS_NUMBERS)
    // Asked twice is asked once: the job answers each number once, in the order first given.
    .overwrite((numbers) => [...new Set(numbers)])
    .meta({ title: "사업자등록번호 목록", description: "숫자 10자리, 1~1000개. 중복은 한 번만 조회합니다" }),
});
const datedParams = z.strictObject(dateRange);

/**
 * How an incremental job matches records with the base job's (docs/scheduling.md): records with one key are one
 * document (a tax invoice's item lines share its approval number), compared whole; `day` (YYYY-MM-DD) places a
 * record in a job's date range, so only days both jobs collected are compared.
 */
export interface RecordIdentity {
  key: (record: Record<string, unknown>) => string;
  day: (record: Record<string, unknown>) => string;
}

// A record without its key (a tax invoice the portal gave no approval number) is matched only by all its fields:
// a change to it shows as the old one removed and the new one added.
const byFields = (keyField: string, dayField: string): RecordIdentity => ({
  key: (record) => (record[keyField] == null ? `record:${JSON.stringify(record)}` : `key:${String(record[keyField])}`),
  day: (record) => String(record[dayField]).slice(0, 10),
});

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
  /** Dated schemas only: what makes a record the same record in a later collection. */
  identity?: RecordIdentity;
}

// An invoice's item lines share its approval number; the portal files documents by the day they were written.
const taxInvoices = { targets: null, datedRange: true, identity: byFields("ntsTransactionId", "writeDate") } as const;
const cashReceipts = { targets: null, datedRange: true, identity: byFields("approvalNumber", "transactionAt") } as const;

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
    identity: byFields("identifier", "transactionAt"),
  },
  { id: "taxportal.tax-invoices.sales.v1", title: "매출 세금계산서", params: datedParams, record: TaxInvoiceSalesRecord, ...taxInvoices },
  { id: "taxportal.tax-invoices.purchase.v1", title: "매입 세금계산서", params: datedParams, record: TaxInvoicePurchaseRecord, ...taxInvoices },
  { id: "taxportal.cash-receipts.sales.v1", title: "매출 현금영수증", params: datedParams, record: CashReceiptSalesRecord, ...cashReceipts },
  { id: "taxportal.cash-receipts.purchase.v1", title: "매입 현금영수증", params: datedParams, record: CashReceiptPurchaseRecord, ...cashReceipts },
  // An invoice's lines are one document under its approval number, on the day the invoice was written.
  { id: "taxportal.tax-invoice-lines.v1", title: "세금계산서 품목", params: datedParams, record: TaxInvoiceLineRecord, targets: null, datedRange: true, identity: byFields("approvalNumber", "writeDate") },
  { id: "taxportal.business-card-purchases.v1", title: "사업용 신용카드 매입", params: datedParams, record: BusinessCardPurchaseRecord, targets: null, datedRange: true, identity: byFields("transactionIdentifier", "transactionDate") },
  { id: "business.status.v1", title: "사업자등록 상태", params: businessStatusParams, record: BusinessStatusRecord, targets: null, datedRange: false },
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
    identity: byFields("transactionIdentifier", "approvedAt"),
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
