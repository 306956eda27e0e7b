import { z } from "@hono/zod-openapi";
import { INVOICE_KINDS, INVOICE_STATUSES } from "../../domain/billing/tables";
import { PLANS } from "../../domain/workspaces/tables";
import { count, int32, pathId, timestamp, uuid } from "../../platform/http/bounds";
import { isoTime } from "../../platform/lib/iso-time";
import { chargedAmount, type InvoiceRow } from "../../domain/billing/invoices";
import type { PaymentMethodRow } from "../../domain/billing/payment-methods";
import type { SubscriptionRow } from "../../domain/billing/subscriptions";
import { PlanSchema } from "../../domain/billing/inputs";
import { DAYS_BOUND } from "../results-retention/shapes";

export const IdParamSchema = z.object({ id: pathId().meta({ param: { name: "id", in: "path" } }) });
const won = () => count().meta({ description: "원 단위 정수" });

export const SubscriptionSchema = z
  .object({
    plan: PlanSchema,
    status: z.enum(["NONE", "ACTIVE", "PAST_DUE"]).meta({ description: "NONE: 결제하는 기간이 없음(FREE, INTERNAL). ACTIVE: 결제된 기간 안. PAST_DUE: 갱신 결제가 실패함" }),
    currentPeriodStart: timestamp().nullable(),
    currentPeriodEnd: timestamp().nullable().meta({ description: "결제된 기간의 끝. 예약된 변경(pendingPlan)은 이때 적용됩니다" }),
    pendingPlan: PlanSchema.nullable().meta({ description: "기간이 끝날 때 바뀔 플랜(다운그레이드나 해지). 없으면 null" }),
  })
  .openapi("Subscription");

export function subscriptionView(plan: (typeof PLANS)[number], row: SubscriptionRow | null): z.infer<typeof SubscriptionSchema> {
  return {
    plan,
    status: row?.status ?? "NONE",
    currentPeriodStart: row ? isoTime(row.currentPeriodStart) : null,
    currentPeriodEnd: row ? isoTime(row.currentPeriodEnd) : null,
    pendingPlan: row?.pendingPlan ?? null,
  };
}

export const PaymentMethodSchema = z
  .object({ id: uuid(), card: z.object({ last4: z.string().length(4) }), createdAt: timestamp() })
  .openapi("PaymentMethod");

export const paymentMethodView = (row: PaymentMethodRow): z.infer<typeof PaymentMethodSchema> => ({ id: row.id, card: { last4: row.cardLast4 }, createdAt: isoTime(row.createdAt) });

export const InvoiceSchema = z
  .object({
    id: uuid(),
    plan: PlanSchema,
    periodStart: timestamp(),
    periodEnd: timestamp(),
    overageJobs: count().meta({ description: "직전 결제 기간에 플랜이 포함한 작업 수를 넘은 작업 수 (갱신 청구서와 OVERAGE 청구서에만)" }),
    overageAmount: won().meta({ description: "그 초과분의 공급가액 (공급가액에 포함)" }),
    supplyAmount: won().meta({ description: "공급가액 (초과분 포함)" }),
    vatAmount: won().meta({ description: "부가세 (공급가액의 10%, 원 미만 버림)" }),
    totalAmount: won().meta({ description: "합계" }),
    kind: z.enum(INVOICE_KINDS).meta({ description: "UPGRADE: 플랜을 올릴 때, RENEWAL: 결제 기간이 끝나 갱신할 때, OVERAGE: 해지하거나 플랜을 내려 갱신 없이 끝난 결제 기간의 초과 작업" }),
    creditAmount: won().meta({ description: "쓴 크레딧. 카드로는 합계에서 이만큼 뺀 금액을 결제합니다" }),
    chargedAmount: won().meta({ description: "카드로 결제하는(한) 금액: 합계 - 크레딧" }),
    currency: z.literal("KRW"),
    status: z.enum(INVOICE_STATUSES).meta({ description: "OPEN: 결제 전, PAID: 결제됨, VOID: 취소됨 (하루 동안 결제되지 않은 업그레이드), REFUNDED: 환불됨" }),
    lastFailureCode: z.string().max(64).nullable().meta({ description: "마지막 결제 시도가 거절된 코드 (CARD_DECLINED 등). 결제되면 null" }),
    createdAt: timestamp(),
    paidAt: timestamp().nullable(),
  })
  .openapi("Invoice");

export const invoiceView = (row: InvoiceRow): z.infer<typeof InvoiceSchema> => ({
  id: row.id,
  plan: row.plan,
  periodStart: isoTime(row.periodStart),
  periodEnd: isoTime(row.periodEnd),
  overageJobs: row.overageJobs,
  overageAmount: row.overageAmount,
  supplyAmount: row.supplyAmount,
  vatAmount: row.vatAmount,
  totalAmount: row.totalAmount,
  kind: row.kind,
  creditAmount: row.creditAmount,
  chargedAmount: chargedAmount(row),
  currency: "KRW",
  status: row.status,
  lastFailureCode: row.lastFailureCode,
  createdAt: isoTime(row.createdAt),
  paidAt: row.paidAt === null ? null : isoTime(row.paidAt),
});

export const PlanOfferSchema = z
  .object({
    plan: PlanSchema,
    name: z.string().max(20),
    purchasable: z.boolean().meta({ description: "콘솔이나 API로 바꿀 수 있는 플랜인지 (INTERNAL은 아님)" }),
    supplyAmount: won().nullable().meta({ description: "한 달 공급가액. 구매할 수 없는 플랜은 null" }),
    vatAmount: won().nullable(),
    totalAmount: won().nullable(),
    limits: z.object({ monthlyJobs: count().nullable(), monthlyTaskSteps: count().nullable(), concurrentJobs: count().nullable() }).meta({ description: "null은 제한 없음" }),
    overage: z.object({ includedJobs: count(), perJob: won() }).nullable().meta({ description: "한 달에 포함된 작업 수와 넘은 작업 한 건의 공급가액. 다음 달 갱신 청구서에 더해집니다. 없으면 null" }),
    maxResultsRetentionDays: int32(1, DAYS_BOUND).meta({ description: "끝난 작업의 결과를 보관하도록 워크스페이스가 정할 수 있는 최대 일수. 지나면 결과는 지워지고 작업 정보만 남습니다 (PUT /results-retention, docs/retention.md)", example: 365 }),
  })
  .openapi("PlanOffer");
