import { chargedAmount, listInvoices } from "../domain/billing/invoices";
import { addPaymentMethod, deletePaymentMethod, listPaymentMethods } from "../domain/billing/payment-methods";
import { cancelPlan, changePlan } from "../domain/billing/plan-change";
import { portOneGateway } from "../domain/billing/portone";
import { payPastDue } from "../domain/billing/renewal";
import { endPeriodNow, testClockOn } from "../domain/billing/test-clock";
import { findSubscription, withdrawChange } from "../domain/billing/subscriptions";
import { verifiedForm } from "../domain/console-sessions/csrf";
import { type ConsoleContext, consoleUserOf, workspaceRoleOf } from "./context";
import { ChangePlanBodySchema, CreatePaymentMethodBodySchema } from "../domain/billing/inputs";
import { PLAN_NAMES, PLAN_OVERAGE, PLAN_PRICES } from "../domain/workspaces/plans";
import { workspaceRow } from "../domain/workspaces/store";
import { planUsage, PlanUsageTable } from "./plan-usage";
import { asApiBody, type FormOutcome, onPage } from "../web/form-outcome";
import { kst } from "../web/kst";
import { ActionButton, CsrfField, DataTable, DeleteForm, Outcome, Page } from "../web/layout";
import { WorkspaceNav } from "./workspace-nav";
import { ApiError } from "../platform/errors/api-error";
import { clientAddress } from "../platform/http/client-address";
import { countCardAttempt } from "../domain/console-sessions/login-attempts";
import { findUser } from "../domain/users/store";
import { replicaTestCards } from "../domain/billing/replica-test-cards";
import { type UpgradeQuote, upgradeQuote } from "../domain/billing/upgrade-quote";
import { PlanConfirm, TestCards } from "./plan-confirm";
import { won } from "./amounts";

const INVOICES_SHOWN = 24;
const STATUS = { NONE: "결제 기간 없음", ACTIVE: "결제됨", PAST_DUE: "연체: 갱신 결제 실패" } as const;

export const INVOICE_STATUS = { OPEN: "미결제", PAID: "결제됨", VOID: "취소됨", REFUNDED: "환불됨" } as const;

/**
 * The owner's billing page: the plan and its usage this month, changing it, the cards, and the invoices; with
 * `confirming`, an upgrade's amounts to confirm before anything is charged; in the sandbox, its test cards.
 */
async function billingPage(c: ConsoleContext<"workspaceId">, shown: FormOutcome = {}, confirming?: UpgradeQuote) {
  const user = consoleUserOf(c);
  const workspaceId = c.req.valid("param").workspaceId;
  const base = `/console/w/${workspaceId}/billing`;
  const [workspace, subscription, cards, invoices, usage, testCards] = await Promise.all([
    workspaceRow(c.env.DB, workspaceId),
    findSubscription(c.env.DB, workspaceId),
    listPaymentMethods(c.env.DB, workspaceId),
    listInvoices(c.env.DB, workspaceId, { limit: INVOICES_SHOWN, after: undefined }),
    planUsage(c.env.DB, workspaceId),
    replicaTestCards(c.env),
  ]);
  const plan = workspace?.plan ?? "FREE";
  // A refused renewal of a past-due subscription, or a refused overage bill (a cancelled plan's last period).
  const pastDue = invoices.find((i) => i.status === "OPEN" && ((i.kind === "RENEWAL" && subscription?.status === "PAST_DUE") || (i.kind === "OVERAGE" && i.attempts > 0)));
  return c.html(
    <Page title="결제" nav={<WorkspaceNav workspaceId={workspaceId} user={user} role={workspaceRoleOf(c)} />}>
      <Outcome shown={shown} />
      <h2>플랜</h2>
      <p id="plan" data-plan={plan} data-status={subscription?.status ?? "NONE"}>
        <strong>{PLAN_NAMES[plan]}</strong> ({STATUS[subscription?.status ?? "NONE"]})
        {subscription && ` · ${kst(subscription.currentPeriodStart)} ~ ${kst(subscription.currentPeriodEnd)}`}
      </p>
      {pastDue && (
        <section class="alert" role="alert" id="past-due" data-code={pastDue.lastFailureCode ?? ""}>
          <p>
            {pastDue.kind === "OVERAGE" ? "초과 작업 청구서 결제가" : "갱신 결제가"} 거절되었습니다{pastDue.lastFailureCode ? ` (${pastDue.lastFailureCode})` : ""}. 카드를 확인하거나 새 카드를 등록한 뒤 지금 결제해 주세요. 첫 거절 뒤 7일이 지나면 새 수집 작업을 시작할 수 없습니다.
          </p>
          <ActionButton action={`${base}/invoices/${pastDue.id}/pay`} csrf={user.csrf} text={`지금 결제 (${won(chargedAmount(pastDue))})`} />
        </section>
      )}
      {subscription?.pendingPlan && (
        <div id="pending-change" data-pending={subscription.pendingPlan}>
          <p>{kst(subscription.currentPeriodEnd)}에 {PLAN_NAMES[subscription.pendingPlan]} 플랜으로 바뀝니다.</p>
          <ActionButton action={`${base}/withdraw-change`} csrf={user.csrf} text="예약 취소" />
        </div>
      )}
      <PlanUsageTable usage={usage} />
      {plan !== "INTERNAL" && (
        <>
          {confirming ? (
            <PlanConfirm quote={confirming} action={`${base}/plan`} cancel={base} csrf={user.csrf} />
          ) : plan === "FREE" ? (
            <form method="post" action={`${base}/plan`}>
              <CsrfField token={user.csrf} />
              <input type="hidden" name="plan" value="PRO" />
              <p>
                {PLAN_NAMES.PRO} 플랜: 월 {won(PLAN_PRICES.PRO!)} (부가세 별도), 수집 작업 한 달 {PLAN_OVERAGE.PRO!.includedJobs.toLocaleString("ko-KR")}건 포함, 넘으면 건당{" "}
                {won(PLAN_OVERAGE.PRO!.perJob)}을 다음 달 청구서에 더합니다. 다음 단계에서 결제할 금액(부가세 포함)을 확인한 뒤 등록한 카드로 결제하고, 그때부터 한 달입니다.
              </p>
              <button type="submit">{PLAN_NAMES.PRO} 플랜으로 올리기 (결제 금액 확인)</button>
            </form>
          ) : (
            !subscription?.pendingPlan && <ActionButton action={`${base}/cancel`} csrf={user.csrf} text="해지 예약 (결제 기간이 끝나면 무료 플랜)" danger />
          )}
        </>
      )}
      {subscription && testClockOn(c.env) && (
        <form method="post" action={`${base}/test-clock`}>
          <CsrfField token={user.csrf} />
          <p>샌드박스의 테스트 시계: 결제 기간을 지금 끝내, 기간이 끝날 때 일어나는 일(예약된 변경, 갱신 결제)을 곧바로 해 봅니다.</p>
          <button type="submit">테스트 시계: 결제 기간 끝내기</button>
        </form>
      )}
      <h2>결제 카드</h2>
      <ul id="cards">
        {cards.map((card, i) => (
          <li data-card-last4={card.cardLast4}>
            **** **** **** {card.cardLast4} {i === 0 ? "(다음 결제)" : ""} · {kst(card.createdAt)}
            <DeleteForm action={`${base}/cards/${card.id}/delete`} csrf={user.csrf} label={`끝자리 ${card.cardLast4} 카드 삭제`} />
          </li>
        ))}
      </ul>
      {cards.length === 0 && <p>등록한 카드가 없습니다.</p>}
      <form method="post" action={`${base}/cards`}>
        <CsrfField token={user.csrf} />
        <label for="card-number">카드 번호</label>
        <input id="card-number" name="number" inputmode="numeric" autocomplete="cc-number" required maxlength={23} />
        <label for="card-expiry-month">유효기간 월 (MM)</label>
        <input id="card-expiry-month" name="expiryMonth" inputmode="numeric" autocomplete="cc-exp-month" required maxlength={2} placeholder="12" />
        <label for="card-expiry-year">유효기간 연도 (YY)</label>
        <input id="card-expiry-year" name="expiryYear" inputmode="numeric" autocomplete="cc-exp-year" required maxlength={2} placeholder="29" />
        <label for="card-owner">생년월일 6자리 (법인카드는 사업자등록번호 10자리)</label>
        <input id="card-owner" name="birthOrBusinessRegistrationNumber" inputmode="numeric" required maxlength={10} autocomplete="off" />
        <label for="card-password">카드 비밀번호 앞 두 자리</label>
        <input id="card-password" name="passwordTwoDigits" type="password" inputmode="numeric" required maxlength={2} autocomplete="off" />
        <p>카드 정보는 결제대행사(PortOne)에만 전달하고 저장하지 않습니다. 끝 네 자리만 보관합니다.</p>
        <button type="submit">카드 등록</button>
      </form>
      {testCards && <TestCards cards={testCards} />}
      <h2>청구서</h2>
      <DataTable columns={["기간", "공급가액", "부가세", "합계", "크레딧", "결제 금액", "상태"]}>
        {invoices.slice(0, INVOICES_SHOWN).map((invoice) => (
          <tr data-invoice-id={invoice.id} data-status={invoice.status}>
            <td>
              <a href={`${base}/invoices/${invoice.id}`}>{PLAN_NAMES[invoice.plan]}</a> · {kst(invoice.periodStart)} ~ {kst(invoice.periodEnd)}
              {invoice.overageJobs > 0 && <span data-overage={invoice.overageJobs}> (초과 {invoice.overageJobs.toLocaleString("ko-KR")}건 {won(invoice.overageAmount)})</span>}
            </td>
            <td>{won(invoice.supplyAmount)}</td>
            <td>{won(invoice.vatAmount)}</td>
            <td>{won(invoice.totalAmount)}</td>
            <td>{won(invoice.creditAmount)}</td>
            <td>{won(chargedAmount(invoice))}</td>
            <td>
              {INVOICE_STATUS[invoice.status]}
              {invoice.lastFailureCode && invoice.status === "OPEN" && <span data-failure={invoice.lastFailureCode}> ({invoice.lastFailureCode})</span>}
            </td>
          </tr>
        ))}
      </DataTable>
      {invoices.length === 0 && <p>청구서가 없습니다.</p>}
    </Page>,
    shown.error ? (shown.error.status as 400) : (shown.status ?? 200),
    shown.error?.headers,
  );
}

export const showBilling = (c: ConsoleContext<"workspaceId">) => billingPage(c);

/** One of the page's forms, checked against the session's CSRF token, its outcome shown on the page. */
const billingForm = <K extends string = never>(act: (c: ConsoleContext<"workspaceId" | K>, fields: Record<string, string>, workspaceId: string) => Promise<string>) => async (c: ConsoleContext<"workspaceId" | K>) => {
  const fields = await verifiedForm(c, consoleUserOf(c).sessionToken);
  return onPage(c, billingPage, () => act(c, fields, c.req.valid("param").workspaceId));
};

/**
 * A plan change from the page. An upgrade charges the card, so the first press only shows the amounts (PlanConfirm);
 * the charge goes ahead when the press carries the amount it would charge now, which the confirmation's button does.
 * Asked with no amount or another one (a credit spent or a price changed meanwhile), the amounts are shown again.
 */
export const changePlanForm = async (c: ConsoleContext<"workspaceId">) => {
  const fields = await verifiedForm(c, consoleUserOf(c).sessionToken);
  const workspaceId = c.req.valid("param").workspaceId;
  let confirming: UpgradeQuote | undefined;
  return onPage(c, (page, shown) => billingPage(page, shown, confirming), async () => {
    const { plan } = asApiBody(ChangePlanBodySchema, { plan: fields.plan ?? "" });
    const current = (await workspaceRow(c.env.DB, workspaceId))?.plan ?? "FREE";
    const charges = PLAN_PRICES[plan] !== null && PLAN_PRICES[current] !== null && PLAN_PRICES[plan]! > PLAN_PRICES[current]!;
    // Without a card there is nothing to confirm: changePlan refuses it (PAYMENT_METHOD_REQUIRED) before any charge.
    const quote = charges ? await upgradeQuote(c.env.DB, workspaceId, plan) : null;
    if (quote?.card && fields.confirmedAmount !== String(quote.chargedAmount)) {
      confirming = quote;
      return fields.confirmedAmount === undefined ? "" : `결제 금액이 ${won(quote.chargedAmount)}으로 바뀌었습니다. 바뀐 금액을 확인해 주세요.`;
    }
    await changePlan(c.env, portOneGateway(c.env), workspaceId, plan);
    return `${PLAN_NAMES[plan]} 플랜으로 바꿨습니다.`;
  });
};

export const cancelForm = billingForm(async (c, _fields, workspaceId) => {
  await cancelPlan(c.env, workspaceId);
  return "해지를 예약했습니다. 결제 기간이 끝나면 무료 플랜이 됩니다.";
});

export const withdrawChangeForm = billingForm(async (c, _fields, workspaceId) => {
  await withdrawChange(c.env.DB, workspaceId);
  return "예약된 변경을 취소했습니다. 지금 플랜 그대로 갱신됩니다.";
});

export const addCardForm = billingForm(async (c, fields, workspaceId) => {
  const { card } = asApiBody(CreatePaymentMethodBodySchema, {
    card: {
      number: fields.number ?? "",
      expiryYear: fields.expiryYear ?? "",
      expiryMonth: (fields.expiryMonth ?? "").padStart(2, "0"),
      birthOrBusinessRegistrationNumber: (fields.birthOrBusinessRegistrationNumber ?? "").replace(/\D/g, ""),
      passwordTwoDigits: fields.passwordTwoDigits ?? "",
    },
  });
  // Whoever adds a card has shown they can be reached at their address; then attempts are limited.
  if (!(await findUser(c.env.DB, consoleUserOf(c).userId))?.emailVerifiedAt) {
    throw new ApiError("WORKSPACE_ACCESS_DENIED", { message: "이메일 주소를 확인하기 전에는 카드를 등록할 수 없습니다. 가입할 때 받은 메일의 링크를 눌러 주세요." });
  }
  await countCardAttempt(c.env.DB, workspaceId, clientAddress(c));
  const row = await addPaymentMethod(c.env, portOneGateway(c.env), workspaceId, card);
  return `끝자리 ${row.cardLast4} 카드를 등록했습니다. 다음 결제는 이 카드로 합니다.`;
});

export const deleteCardForm = billingForm<"cardId">(async (c, _fields, workspaceId) => {
  await deletePaymentMethod(c.env, portOneGateway(c.env), workspaceId, c.req.valid("param").cardId);
  return "카드를 삭제했습니다.";
});

export const payInvoiceForm = billingForm<"invoiceId">(async (c, _fields, workspaceId) => {
  await payPastDue(c.env, portOneGateway(c.env), workspaceId, c.req.valid("param").invoiceId);
  return "청구서를 결제했습니다. 연체가 풀려 새 작업을 다시 만들 수 있습니다.";
});

export const testClockForm = billingForm(async (c, _fields, workspaceId) => {
  await endPeriodNow(c.env, portOneGateway(c.env), workspaceId);
  return "결제 기간을 끝냈습니다. 예약된 변경이나 갱신 결제가 바로 처리되었습니다.";
});
