import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { Webhook } from "standardwebhooks";
import { ledgerBalance, recordPayment } from "../../../../worker/domain/billing/invoices";
import { renewSubscriptions } from "../../../../worker/domain/billing/renewal";
import { endPeriodNow } from "../../../../worker/domain/billing/test-clock";
import { voidStaleUpgrades } from "../../../../worker/domain/billing/void";
import { openText } from "../../../../worker/domain/vault/envelope";
import { changePlan } from "../../../../worker/domain/billing/plan-change";
import { portOneGateway } from "../../../../worker/domain/billing/portone";
import { applyBookedChanges } from "../../../../worker/domain/billing/subscriptions";
import { call, callJson, createWorkspace } from "../../../support/workers/helpers";
import { freshCode, newOperator, signedIn } from "../../../support/workers/operator-helpers";
import { alertCode, ConsoleBrowser } from "../../../support/workers/console-browser";

type Json = Record<string, any>;

const CARD = { expiryYear: "29", expiryMonth: "12", birthOrBusinessRegistrationNumber: "1208800767", passwordTwoDigits: "00" };
const GOOD_CARD = { number: "4242-4242-4242-4242", ...CARD };

/** A FREE workspace with its managing key, and the billing API as that key calls it, from an address of its own (cards are limited per address). */
async function billedWorkspace() {
  const ws = await createWorkspace();
  const address = `198.18.${Math.floor(Math.random() * 256)}.${1 + Math.floor(Math.random() * 254)}`;
  const api = <T = Json>(method: string, path: string, json?: unknown) =>
    callJson<T>(`/api/v1/billing${path}`, { method, key: ws.apiKey, headers: { "CF-Connecting-IP": address }, ...(json === undefined ? {} : { json }) });
  return { ...ws, api };
}

/** What the replica's card company saw for a payment id: every attempt, paid or refused. */
async function gatewayPayments(paymentId: string): Promise<Json[]> {
  const res = await fetch(`${env.PORTONE_API_URL}/_sandbox/payments`);
  return ((await res.json()) as { items: Json[] }).items.filter((p) => p.id === paymentId);
}

const planOf = async (workspaceId: string) => (await env.DB.prepare("SELECT plan FROM workspaces WHERE id = ?").bind(workspaceId).first<{ plan: string }>())!.plan;
const ledgerOf = async (workspaceId: string) => (await env.DB.prepare("SELECT entry, amount FROM billing_ledger WHERE workspace_id = ? ORDER BY created_at, entry").bind(workspaceId).all()).results;

describe("plans and their prices", () => {
  it("lists each plan's monthly price with VAT apart, in whole won, and INTERNAL as not for sale", async () => {
    const { api } = await billedWorkspace();
    const { body } = await api("GET", "/plans");
    expect(body.items.find((p: Json) => p.plan === "PRO")).toMatchObject({ purchasable: true, supplyAmount: 99_000, vatAmount: 9_900, totalAmount: 108_900, overage: { includedJobs: 5_000, perJob: 30 } });
    expect(body.items.find((p: Json) => p.plan === "FREE")).toMatchObject({ supplyAmount: 0, totalAmount: 0, limits: { monthlyJobs: 300 } });
    expect(body.items.find((p: Json) => p.plan === "INTERNAL")).toMatchObject({ purchasable: false, totalAmount: null });
  });

  it("says how many days each plan lets a workspace keep results, the same maximum PUT /results-retention allows", async () => {
    const { api } = await billedWorkspace();
    const { body } = await api("GET", "/plans");
    expect(Object.fromEntries(body.items.map((p: Json) => [p.plan, p.maxResultsRetentionDays]))).toEqual({ FREE: 30, PRO: 365, INTERNAL: 365 });
    const doc = await callJson<Json>("/api/v1/openapi.json");
    expect(doc.body.components.schemas.PlanOffer.required).toContain("maxResultsRetentionDays");
    expect(doc.body.components.schemas.PlanOffer.properties.maxResultsRetentionDays).toMatchObject({ type: "integer", description: expect.stringContaining("최대 일수") });
  });
});

describe("upgrading with a card through the payment gateway", () => {
  it("asks for a card first, then charges the month with VAT at once and moves the workspace to PRO, with the invoice and the ledger to show for it", async () => {
    const { api, workspaceId } = await billedWorkspace();
    expect((await api("POST", "/subscription/plan", { plan: "PRO" })).body.code).toBe("PAYMENT_METHOD_REQUIRED");
    const card = await api("POST", "/payment-methods", { card: GOOD_CARD });
    expect(card.status, JSON.stringify(card.body)).toBe(201);
    expect(card.body.card).toEqual({ last4: "4242" });
    const stored = JSON.stringify(await env.DB.prepare("SELECT * FROM payment_methods WHERE workspace_id = ?").bind(workspaceId).all());
    expect(stored).not.toContain("4242424242424242");
    expect(stored).not.toContain("billing-key-");

    const upgraded = await api("POST", "/subscription/plan", { plan: "PRO" });
    expect(upgraded.status, JSON.stringify(upgraded.body)).toBe(200);
    expect(upgraded.body).toMatchObject({ plan: "PRO", status: "ACTIVE", pendingPlan: null });
    expect(await planOf(workspaceId)).toBe("PRO");
    const [invoice] = (await api("GET", "/invoices")).body.items;
    expect(invoice).toMatchObject({ plan: "PRO", status: "PAID", supplyAmount: 99_000, vatAmount: 9_900, totalAmount: 108_900, currency: "KRW", lastFailureCode: null });
    expect(invoice.periodStart).toBe(upgraded.body.currentPeriodStart);
    expect(new Date(invoice.periodEnd).getUTCMonth()).toBe((new Date(invoice.periodStart).getUTCMonth() + 1) % 12);
    expect(await gatewayPayments(invoice.id)).toMatchObject([{ status: "PAID", amount: { total: 108_900 }, currency: "KRW" }]);
    expect(await ledgerOf(workspaceId)).toEqual([
      { entry: "INVOICED", amount: 108_900 },
      { entry: "PAID", amount: -108_900 },
    ]);
    expect((await api("GET", `/invoices/${invoice.id}`)).body.id).toBe(invoice.id);
    expect((await api("GET", `/invoices/${crypto.randomUUID()}`)).body.code).toBe("INVOICE_NOT_FOUND");
    expect((await api("POST", "/subscription/plan", { plan: "PRO" })).body.code).toBe("SAME_PLAN_CHANGE");
  });

  for (const [number, code] of [
    ["4000000000000002", "CARD_DECLINED"],
    ["4000000000000069", "CARD_LIMIT_EXCEEDED"],
    ["4000000000009995", "INSUFFICIENT_FUNDS"],
    ["4000000000000036", "MERCHANT_LIMIT_EXCEEDED"],
    ["4000000000000119", "PAYMENT_FAILED"],
  ] as const) {
    it(`answers 402 ${code} for the card company's refusal, keeps the workspace on FREE, and charges the same invoice when asked again with another card`, async () => {
      const { api, workspaceId } = await billedWorkspace();
      await api("POST", "/payment-methods", { card: { ...CARD, number } });
      const refused = await api("POST", "/subscription/plan", { plan: "PRO" });
      expect(refused.status).toBe(402);
      expect(refused.body).toMatchObject({ code, message: expect.stringContaining("결제대행사 응답") });
      expect(await planOf(workspaceId)).toBe("FREE");
      const [open] = (await api("GET", "/invoices")).body.items;
      expect(open).toMatchObject({ status: "OPEN", lastFailureCode: code });

      await api("POST", "/payment-methods", { card: GOOD_CARD });
      expect((await api("POST", "/subscription/plan", { plan: "PRO" })).body.plan).toBe("PRO");
      const invoices = (await api("GET", "/invoices")).body.items;
      expect(invoices.map((i: Json) => [i.id, i.status])).toEqual([[open.id, "PAID"]]);
      expect((await gatewayPayments(open.id)).map((p) => p.status)).toEqual(["PAID"]);
    });
  }

  it("refuses a card the card company will not register, keeping nothing", async () => {
    const { api, workspaceId } = await billedWorkspace();
    const refused = await api("POST", "/payment-methods", { card: { ...CARD, number: "4000000000000127" } });
    expect(refused.status).toBe(402);
    expect(refused.body.code).toBe("CARD_DECLINED");
    expect((await env.DB.prepare("SELECT count(*) AS n FROM payment_methods WHERE workspace_id = ?").bind(workspaceId).first<{ n: number }>())!.n).toBe(0);
    const malformed = await api("POST", "/payment-methods", { card: { ...GOOD_CARD, expiryMonth: "13" } });
    expect(malformed.status).toBe(400);
    expect(malformed.body.fieldErrors.map((f: Json) => f.field)).toEqual(["body.card.expiryMonth"]);
  });

  it("charges no one twice when the service dies between the gateway's charge and its own record: asked again, it records the one payment", async () => {
    const { api, workspaceId } = await billedWorkspace();
    await api("POST", "/payment-methods", { card: GOOD_CARD });
    const gateway = portOneGateway(env);
    const crash = () => Promise.reject(new Error("worker died before the ledger"));
    await expect(changePlan(env, gateway, workspaceId, "PRO", crash)).rejects.toThrow("worker died");
    expect(await planOf(workspaceId)).toBe("FREE");
    const [open] = (await api("GET", "/invoices")).body.items;
    expect(open.status).toBe("OPEN");
    expect((await gatewayPayments(open.id)).map((p) => p.status)).toEqual(["PAID"]);

    await changePlan(env, gateway, workspaceId, "PRO", recordPayment);
    expect(await planOf(workspaceId)).toBe("PRO");
    expect((await gatewayPayments(open.id)).map((p) => p.status)).toEqual(["PAID"]);
    expect(await ledgerOf(workspaceId)).toEqual([
      { entry: "INVOICED", amount: 108_900 },
      { entry: "PAID", amount: -108_900 },
    ]);
    // The ledger is append-only in the database itself.
    await expect(env.DB.prepare("UPDATE billing_ledger SET amount = 0 WHERE workspace_id = ?").bind(workspaceId).run()).rejects.toThrow(/append-only/);
    await expect(env.DB.prepare("DELETE FROM billing_ledger WHERE workspace_id = ?").bind(workspaceId).run()).rejects.toThrow(/append-only/);
  });
});

describe("downgrading and cancelling", () => {
  async function proWorkspace() {
    const ws = await billedWorkspace();
    await ws.api("POST", "/payment-methods", { card: GOOD_CARD });
    expect((await ws.api("POST", "/subscription/plan", { plan: "PRO" })).body.plan).toBe("PRO");
    return ws;
  }
  const endPeriod = (workspaceId: string) => env.DB.prepare("UPDATE subscriptions SET current_period_end = ? WHERE workspace_id = ?").bind(Date.now() - 1000, workspaceId).run();

  it("books the move to FREE for the end of the paid period, which can be withdrawn, and applies it when the period ends", async () => {
    const { api, workspaceId } = await proWorkspace();
    const booked = await api("POST", "/subscription/plan", { plan: "FREE" });
    expect(booked.body).toMatchObject({ plan: "PRO", pendingPlan: "FREE" });
    expect((await api("DELETE", "/subscription/pending-change")).body).toMatchObject({ plan: "PRO", pendingPlan: null });
    expect((await api("DELETE", "/subscription/pending-change")).body.code).toBe("NO_PENDING_PLAN_CHANGE");

    expect((await api("POST", "/subscription/cancel")).body).toMatchObject({ plan: "PRO", pendingPlan: "FREE" });
    await applyBookedChanges(env.DB);
    expect(await planOf(workspaceId)).toBe("PRO");
    await endPeriod(workspaceId);
    await applyBookedChanges(env.DB);
    expect(await planOf(workspaceId)).toBe("FREE");
    expect((await api("GET", "/subscription")).body).toMatchObject({ plan: "FREE", status: "NONE", currentPeriodEnd: null });
    expect((await api("POST", "/subscription/cancel")).body.code).toBe("ALREADY_FREE_NO_OP");
  });

  it("keeps the only card of a renewing plan (PAYMENT_METHOD_IN_USE) and lets it go once the cancellation is booked", async () => {
    const { api } = await proWorkspace();
    const [card] = (await api("GET", "/payment-methods")).body.items;
    expect((await api("DELETE", `/payment-methods/${card.id}`)).body.code).toBe("PAYMENT_METHOD_IN_USE");
    await api("POST", "/subscription/cancel");
    expect((await api("DELETE", `/payment-methods/${card.id}`)).status).toBe(204);
    expect((await api("DELETE", `/payment-methods/${card.id}`)).body.code).toBe("PAYMENT_METHOD_NOT_FOUND");
    expect((await api("GET", "/payment-methods")).body.items).toEqual([]);
  });
});

describe("plans an operator gave", () => {
  it("refuses to sell INTERNAL, to change a workspace off it, to cancel a PRO no one paid for (SUBSCRIPTION_NOT_FOUND), and to move a workspace that does not exist (WORKSPACE_NOT_FOUND)", async () => {
    const { api, workspaceId } = await billedWorkspace();
    expect((await api("POST", "/subscription/plan", { plan: "INTERNAL" })).body.code).toBe("INTERNAL_PLAN_NOT_PURCHASABLE");
    const admin = await signedIn("admin");
    const operatorPlan = (plan: string) => callJson(`/admin/api/workspaces/${workspaceId}/plan`, { method: "PUT", key: admin.token, json: { plan, reason: "파트너 시험 워크스페이스" } });
    expect((await operatorPlan("INTERNAL")).status).toBe(200);
    expect((await api("POST", "/subscription/plan", { plan: "PRO" })).body.code).toBe("INTERNAL_PLAN_NOT_MUTABLE");
    expect((await api("POST", "/subscription/cancel")).body.code).toBe("INTERNAL_PLAN_NOT_MUTABLE");
    expect((await operatorPlan("PRO")).status).toBe(200);
    const cancel = await api("POST", "/subscription/cancel");
    expect(cancel.status).toBe(404);
    expect(cancel.body.code).toBe("SUBSCRIPTION_NOT_FOUND");
    const nowhere = await callJson<Json>(`/admin/api/workspaces/${crypto.randomUUID()}/plan`, { method: "PUT", key: admin.token, json: { plan: "PRO", reason: "없는 워크스페이스" } });
    expect(nowhere.status).toBe(404);
    expect(nowhere.body.code).toBe("WORKSPACE_NOT_FOUND");
  });
});

/** An owner signed in to the console, and their billing page's forms, each posted from the page as a browser would. */
async function billingConsole() {
  const owner = new ConsoleBrowser();
  const { workspaceId, email } = await owner.signUp();
  // Only a person whose address is confirmed registers cards.
  await owner.verifyEmail(email);
  const page = `/console/w/${workspaceId}/billing`;
  const post = async (path: string, fields: Record<string, string> = {}) => {
    await owner.open(page);
    return owner.post(`${page}${path}`, fields);
  };
  /** An upgrade as the owner makes it: the plan's button, then the confirmation's, which carries the amount it showed. */
  const upgrade = async (plan = "PRO") => {
    const shown = await post("/plan", { plan });
    const amount = /name="confirmedAmount" value="(\d+)"/.exec(shown.html)?.[1];
    if (!amount) throw new Error(`no confirmation of the upgrade: ${shown.status} ${shown.html.slice(0, 300)}`);
    return owner.post(`${page}/plan`, { plan, confirmedAmount: amount });
  };
  return { owner, workspaceId, page, post, upgrade };
}

describe("renewals, past due and paying late", () => {
  const DAY = 86_400_000;
  async function proWithCard(renewalCard: string) {
    const ws = await billedWorkspace();
    await ws.api("POST", "/payment-methods", { card: GOOD_CARD });
    await ws.api("POST", "/subscription/plan", { plan: "PRO" });
    if (renewalCard !== GOOD_CARD.number) await ws.api("POST", "/payment-methods", { card: { ...CARD, number: renewalCard } });
    const periodEnd = Date.parse((await ws.api("GET", "/subscription")).body.currentPeriodEnd);
    return { ...ws, periodEnd };
  }
  const createJob = (key: string) => callJson<Json>("/api/v1/data-jobs", { method: "POST", key, json: { providerCode: "sandbox.card", schema: "card.cards.corp.v1" } });

  it("renews a paid month when it ends, charging the next month to the newest card", async () => {
    const { api, workspaceId, periodEnd } = await proWithCard(GOOD_CARD.number);
    await renewSubscriptions(env, portOneGateway(env), periodEnd - 1000);
    expect((await api("GET", "/invoices")).body.items).toHaveLength(1);
    await renewSubscriptions(env, portOneGateway(env), periodEnd + 1000);
    const [renewal] = (await api("GET", "/invoices")).body.items;
    expect(renewal).toMatchObject({ kind: "RENEWAL", status: "PAID", periodStart: new Date(periodEnd).toISOString(), chargedAmount: 108_900 });
    expect((await api("GET", "/subscription")).body).toMatchObject({ status: "ACTIVE", currentPeriodStart: new Date(periodEnd).toISOString(), currentPeriodEnd: renewal.periodEnd });
    expect(await ledgerOf(workspaceId)).toHaveLength(4);
  });

  it("bills the jobs past PRO's monthly allowance with the next month, 30 won each before VAT", async () => {
    const { api, workspaceId, periodEnd } = await proWithCard(GOOD_CARD.number);
    const periodStart = Date.parse((await api("GET", "/subscription")).body.currentPeriodStart);
    // 5,003 jobs in the period (three past the allowance), and one after it, which the next month bills.
    await env.DB.prepare(
      `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 5004)
       INSERT INTO jobs (id, workspace_id, billing_workspace_id, provider_code, schema, params, status, created_at, updated_at, deadline_at)
       SELECT lower(hex(randomblob(16))), ?1, ?1, 'sandbox.bank', 'bank.accounts.cb.v1', '{}', 'SUCCEEDED', t, t, t
       FROM (SELECT i, CASE WHEN i <= 5003 THEN ?2 + i ELSE ?3 + 1 END AS t FROM n)`,
    )
      .bind(workspaceId, periodStart, periodEnd)
      .run();
    await renewSubscriptions(env, portOneGateway(env), periodEnd + 1000);
    const [renewal] = (await api("GET", "/invoices")).body.items;
    expect(renewal).toMatchObject({ kind: "RENEWAL", overageJobs: 3, overageAmount: 90, supplyAmount: 99_090, vatAmount: 9_909, totalAmount: 108_999, status: "PAID" });
    expect(await gatewayPayments(renewal.id)).toMatchObject([{ amount: { total: 108_999 } }]);
  });

  it("marks a refused renewal past due, retries it on its schedule, stops new jobs after the grace period with SUBSCRIPTION_PAST_DUE, and lifts it when the invoice is paid", async () => {
    const { api, apiKey, workspaceId, periodEnd } = await proWithCard("4000000000009995");
    const gateway = portOneGateway(env);
    await renewSubscriptions(env, gateway, periodEnd + 1000);
    const [renewal] = (await api("GET", "/invoices")).body.items;
    expect(renewal).toMatchObject({ kind: "RENEWAL", status: "OPEN", lastFailureCode: "INSUFFICIENT_FUNDS" });
    expect((await api("GET", "/subscription")).body).toMatchObject({ plan: "PRO", status: "PAST_DUE" });
    const schedule = async () => (await env.DB.prepare("SELECT attempts, next_attempt_at AS next FROM invoices WHERE id = ?").bind(renewal.id).first<{ attempts: number; next: number | null }>())!;
    const firstRefusal = (await schedule()).next! - DAY;
    expect(await schedule()).toEqual({ attempts: 1, next: firstRefusal + DAY });
    // Not due again yet: no second charge.
    await renewSubscriptions(env, gateway, firstRefusal + DAY - 1000);
    expect((await gatewayPayments(renewal.id)).length).toBe(1);
    for (const [at, next] of [[firstRefusal + DAY, firstRefusal + 3 * DAY], [firstRefusal + 3 * DAY, firstRefusal + 5 * DAY], [firstRefusal + 5 * DAY, null]] as const) {
      await renewSubscriptions(env, gateway, at + 1000);
      expect((await schedule()).next).toBe(next);
    }
    expect((await schedule()).attempts).toBe(4);
    expect((await createJob(apiKey)).status).toBe(201);
    await env.DB.prepare("UPDATE workspaces SET past_due_since = ? WHERE id = ?").bind(Date.now() - 8 * DAY, workspaceId).run();
    const blocked = await createJob(apiKey);
    expect(blocked.status).toBe(402);
    expect(blocked.body.code).toBe("SUBSCRIPTION_PAST_DUE");

    await api("POST", "/payment-methods", { card: { ...CARD, number: "5555555555554444" } });
    const paid = await api("POST", `/invoices/${renewal.id}/pay`);
    expect(paid.status, JSON.stringify(paid.body)).toBe(200);
    expect(paid.body.status).toBe("PAID");
    expect((await api("GET", "/subscription")).body).toMatchObject({ status: "ACTIVE", currentPeriodStart: new Date(periodEnd).toISOString() });
    expect((await createJob(apiKey)).status).toBe(201);
    expect((await api("POST", `/invoices/${renewal.id}/pay`)).body.code).toBe("SUBSCRIPTION_NOT_PAST_DUE");
  });
});

describe("usage credits", () => {
  const grant = async (admin: Awaited<ReturnType<typeof signedIn>>, workspaceId: string, amount: number, expiresAt = new Date(Date.now() + 30 * 86_400_000).toISOString()) =>
    callJson<Json>(`/admin/api/workspaces/${workspaceId}/credits`, { method: "POST", key: admin.token, json: { amount, expiresAt, reason: "장애 보상", code: await freshCode(admin) } });

  it("spends an operator's credit on the next invoice before the card, and refuses a credit of no whole won, one already expired, and one for a workspace never invoiced", async () => {
    const admin = await signedIn("admin");
    const { api, workspaceId } = await billedWorkspace();
    for (const amount of [0, -5, 1.5, 10_000_001]) expect((await grant(admin, workspaceId, amount)).body.code, String(amount)).toBe("INVALID_USAGE_CREDIT");
    expect((await grant(admin, workspaceId, 1000, new Date(Date.now() - 1000).toISOString())).body.code).toBe("USAGE_CREDIT_EXPIRES_IN_PAST");
    const granted = await grant(admin, workspaceId, 50_000);
    expect(granted.status).toBe(201);

    await api("POST", "/payment-methods", { card: GOOD_CARD });
    await api("POST", "/subscription/plan", { plan: "PRO" });
    const [invoice] = (await api("GET", "/invoices")).body.items;
    expect(invoice).toMatchObject({ totalAmount: 108_900, creditAmount: 50_000, chargedAmount: 58_900, status: "PAID" });
    expect(await gatewayPayments(invoice.id)).toMatchObject([{ status: "PAID", amount: { total: 58_900 } }]);
    expect(await ledgerOf(workspaceId)).toEqual(
      expect.arrayContaining([
        { entry: "INVOICED", amount: 108_900 },
        { entry: "CREDIT_APPLIED", amount: -50_000 },
        { entry: "PAID", amount: -58_900 },
      ]),
    );
    expect(await ledgerBalance(env.DB, workspaceId)).toBe(0);

    const internal = await createWorkspace();
    await callJson(`/admin/api/workspaces/${internal.workspaceId}/plan`, { method: "PUT", key: admin.token, json: { plan: "INTERNAL", reason: "내부 시험" } });
    expect((await grant(admin, internal.workspaceId, 1000)).body.code).toBe("USAGE_CREDIT_NOT_APPLICABLE");
  });
});

describe("the sandbox's test clock", () => {
  it("ends a paid period at once from the billing page, applying the booked move to FREE, and exists only where the deployment keeps one", async () => {
    const { workspaceId, post, upgrade } = await billingConsole();
    await post("/cards", { number: "4242424242424242", expiryMonth: "12", expiryYear: "29", birthOrBusinessRegistrationNumber: "900101", passwordTwoDigits: "00" });
    await upgrade();
    expect((await post("/cancel")).html).toContain('data-pending="FREE"');
    await expect(endPeriodNow({ ...env, BILLING_TEST_CLOCK: undefined }, portOneGateway(env), workspaceId)).rejects.toMatchObject({ code: "RESOURCE_NOT_FOUND" });
    const ended = await post("/test-clock");
    expect(ended.html).toContain('data-plan="FREE"');
    expect(await planOf(workspaceId)).toBe("FREE");
    expect(ended.html).not.toContain("테스트 시계: 결제 기간 끝내기");
  });
});

describe("usage credits in the operator console", () => {
  it("lets an admin grant credits with a reason written to the audit log, shows what remains, and refuses a credit that expired", async () => {
    const admin = await newOperator("admin");
    const browser = new ConsoleBrowser();
    await browser.open("/admin/sign-in");
    await browser.post("/admin/sign-in", { email: admin.email, password: admin.password, code: admin.app.generate() });
    const { workspaceId } = await billedWorkspace();
    const page = `/admin/workspaces/${workspaceId}`;
    await browser.open(page);
    const until = new Date(Date.now() + 40 * 86_400_000 + 9 * 3_600_000).toISOString().slice(0, 10);
    const granted = await browser.post(`${page}/credits`, { amount: "30000", expiresOn: until, reason: "11월 장애 보상", code: await freshCode(admin) });
    expect(granted.location).toBe(page);
    const shown = await browser.open(page);
    expect(shown.html).toContain('data-remaining="30000"');
    const row = await env.DB.prepare("SELECT amount, expires_at AS expiresAt, reason FROM usage_credits WHERE workspace_id = ?").bind(workspaceId).first();
    expect(row).toEqual({ amount: 30_000, expiresAt: Date.parse(`${until}T23:59:59.999+09:00`), reason: "11월 장애 보상" });
    const audit = await env.DB.prepare("SELECT action, reason FROM operator_audit WHERE target_id = ? AND action = 'workspace.credit'").bind(workspaceId).all();
    expect(audit.results).toEqual([{ action: "workspace.credit", reason: "11월 장애 보상" }]);

    const expired = await browser.post(`${page}/credits`, { amount: "1000", expiresOn: "2020-01-01", reason: "지난 날짜 시험" });
    expect(expired.status).toBe(400);
    expect(alertCode(expired.html)).toBe("USAGE_CREDIT_EXPIRES_IN_PAST");
  });
});

describe("upgrades left unpaid", () => {
  it("voids an upgrade invoice no charge began on for a day, giving back the credits it took, exactly once; the next upgrade starts afresh", async () => {
    const admin = await signedIn("admin");
    const { api, workspaceId } = await billedWorkspace();
    await callJson(`/admin/api/workspaces/${workspaceId}/credits`, { method: "POST", key: admin.token, json: { amount: 50_000, expiresAt: new Date(Date.now() + 30 * 86_400_000).toISOString(), reason: "보상 크레딧", code: await freshCode(admin) } });
    await api("POST", "/payment-methods", { card: { ...CARD, number: "4000000000000002" } });
    expect((await api("POST", "/subscription/plan", { plan: "PRO" })).body.code).toBe("CARD_DECLINED");
    const [refused] = (await api("GET", "/invoices")).body.items;
    expect(refused).toMatchObject({ status: "OPEN", creditAmount: 50_000 });
    const remaining = async () => (await env.DB.prepare("SELECT remaining FROM usage_credits WHERE workspace_id = ?").bind(workspaceId).first<{ remaining: number }>())!.remaining;
    expect(await remaining()).toBe(0);

    expect(await voidStaleUpgrades(env.DB, Date.now() + 3_600_000)).toBe(0);
    const dayLater = Date.now() + 25 * 3_600_000;
    await voidStaleUpgrades(env.DB, dayLater);
    await voidStaleUpgrades(env.DB, dayLater + 60_000);
    expect((await api("GET", `/invoices/${refused.id}`)).body.status).toBe("VOID");
    expect(await remaining()).toBe(50_000);
    expect(await ledgerOf(workspaceId)).toEqual(
      expect.arrayContaining([
        { entry: "INVOICED", amount: 108_900 },
        { entry: "CREDIT_APPLIED", amount: -50_000 },
        { entry: "VOIDED", amount: -108_900 },
        { entry: "CREDIT_RETURNED", amount: 50_000 },
      ]),
    );
    expect(await ledgerOf(workspaceId)).toHaveLength(4);
    expect(await ledgerBalance(env.DB, workspaceId)).toBe(0);

    await api("POST", "/payment-methods", { card: GOOD_CARD });
    expect((await api("POST", "/subscription/plan", { plan: "PRO" })).body.plan).toBe("PRO");
    const [paid] = (await api("GET", "/invoices")).body.items;
    expect(paid).toMatchObject({ status: "PAID", creditAmount: 50_000, chargedAmount: 58_900 });
    expect(paid.id).not.toBe(refused.id);
  });
});

describe("refunds", () => {
  it("gives a paid invoice's card payment back at the gateway on an admin's request, cancelling it in the ledger and giving its credits back, once", async () => {
    const admin = await signedIn("admin");
    const { api, workspaceId } = await billedWorkspace();
    await callJson(`/admin/api/workspaces/${workspaceId}/credits`, { method: "POST", key: admin.token, json: { amount: 8_900, expiresAt: new Date(Date.now() + 30 * 86_400_000).toISOString(), reason: "보상 크레딧", code: await freshCode(admin) } });
    await api("POST", "/payment-methods", { card: GOOD_CARD });
    await api("POST", "/subscription/plan", { plan: "PRO" });
    const [invoice] = (await api("GET", "/invoices")).body.items;
    expect(invoice).toMatchObject({ status: "PAID", chargedAmount: 100_000 });
    const refund = async (reason: string) => callJson<Json>(`/admin/api/invoices/${invoice.id}/refund`, { method: "POST", key: admin.token, json: { reason, code: await freshCode(admin) } });

    const refunded = await refund("이중 결제 신고 확인");
    expect(refunded.status, JSON.stringify(refunded.body)).toBe(200);
    expect((await api("GET", `/invoices/${invoice.id}`)).body.status).toBe("REFUNDED");
    expect(await gatewayPayments(invoice.id)).toMatchObject([{ status: "CANCELLED" }]);
    expect(await ledgerOf(workspaceId)).toEqual(
      expect.arrayContaining([
        { entry: "PAID", amount: -100_000 },
        { entry: "VOIDED", amount: -108_900 },
        { entry: "CREDIT_RETURNED", amount: 8_900 },
        { entry: "REFUNDED", amount: 100_000 },
      ]),
    );
    expect(await ledgerBalance(env.DB, workspaceId)).toBe(0);
    expect((await env.DB.prepare("SELECT remaining FROM usage_credits WHERE workspace_id = ?").bind(workspaceId).first<{ remaining: number }>())!.remaining).toBe(8_900);
    expect((await refund("다시 요청")).body.code).toBe("ACTION_NOT_SUPPORTED");
    expect((await callJson<Json>(`/admin/api/invoices/${crypto.randomUUID()}/refund`, { method: "POST", key: admin.token, json: { reason: "없는 청구서", code: await freshCode(admin) } })).body.code).toBe("INVOICE_NOT_FOUND");
    const support = await signedIn("support");
    expect((await callJson<Json>(`/admin/api/invoices/${invoice.id}/refund`, { method: "POST", key: support.token, json: { reason: "권한 없는 환불", code: await freshCode(support) } })).body.code).toBe("ADMIN_ACTION_FORBIDDEN");
  });
});

describe("the gateway's webhooks", () => {
  const signed = (body: string, secret = env.PORTONE_WEBHOOK_SECRET!) => {
    const id = `msg_${crypto.randomUUID()}`;
    const at = new Date();
    return { "webhook-id": id, "webhook-timestamp": String(Math.floor(at.getTime() / 1000)), "webhook-signature": new Webhook(secret).sign(id, at, body) };
  };
  const deliver = (body: string, headers: Record<string, string>) => call("/webhooks/portone", { method: "POST", headers: { "Content-Type": "application/json", ...headers }, body });

  it("refuses a delivery not signed with the gateway's secret (WEBHOOK_SIGNATURE_INVALID), and records a paid charge the service never recorded, once it reads it back", async () => {
    const { api, workspaceId } = await billedWorkspace();
    await api("POST", "/payment-methods", { card: GOOD_CARD });
    await expect(changePlan(env, portOneGateway(env), workspaceId, "PRO", () => Promise.reject(new Error("died")))).rejects.toThrow("died");
    const [open] = (await api("GET", "/invoices")).body.items;
    const body = JSON.stringify({ type: "Transaction.Paid", timestamp: new Date().toISOString(), data: { paymentId: open.id, storeId: "store-sandbox", transactionId: "tx" } });

    for (const headers of [{}, signed(body, `whsec_${btoa("another secret of 24 bytes")}`), signed(`${body} `)]) {
      const refused = await deliver(body, headers);
      expect(refused.status).toBe(401);
      expect(((await refused.json()) as Json).code).toBe("WEBHOOK_SIGNATURE_INVALID");
    }
    expect(await planOf(workspaceId)).toBe("FREE");
    const accepted = await deliver(body, signed(body));
    expect(await accepted.json()).toEqual({ outcome: "recorded" });
    expect(await planOf(workspaceId)).toBe("PRO");
    expect((await api("GET", `/invoices/${open.id}`)).body.status).toBe("PAID");
    expect(await deliver(body, signed(body)).then((r) => r.json())).toEqual({ outcome: "ignored" });
  });

  it("removes the card whose billing key the gateway deleted", async () => {
    const { api } = await billedWorkspace();
    await api("POST", "/payment-methods", { card: GOOD_CARD });
    const [method] = (await env.DB.prepare("SELECT id, sealed_billing_key AS sealed FROM payment_methods WHERE deleted_at IS NULL ORDER BY created_at DESC LIMIT 1").all<{ id: string; sealed: string }>()).results;
    const billingKey = await openText(env.VAULT_MASTER_KEY, [method!.id], method!.sealed);
    const body = JSON.stringify({ type: "BillingKey.Deleted", timestamp: new Date().toISOString(), data: { billingKey, storeId: "store-sandbox" } });
    expect(await deliver(body, signed(body)).then((r) => r.json())).toEqual({ outcome: "recorded" });
    expect((await api("GET", "/payment-methods")).body.items).toEqual([]);
  });
});

describe("the console's billing page", () => {
  it("shows the owner a past-due renewal with a pay-now button that pays it with the card just added", async () => {
    const { owner, workspaceId, page, post, upgrade } = await billingConsole();
    const card = (number: string) => ({ number, expiryMonth: "12", expiryYear: "29", birthOrBusinessRegistrationNumber: "900101", passwordTwoDigits: "00" });
    await post("/cards", card("4242424242424242"));
    expect((await upgrade()).html).toContain('data-plan="PRO"');
    await post("/cards", card("4000000000000002"));
    const periodEnd = (await env.DB.prepare("SELECT current_period_end AS end FROM subscriptions WHERE workspace_id = ?").bind(workspaceId).first<{ end: number }>())!.end;
    await renewSubscriptions(env, portOneGateway(env), periodEnd + 1000);

    const pastDue = await owner.open(page);
    expect(pastDue.html).toContain('data-status="PAST_DUE"');
    expect(pastDue.html).toContain('data-failure="CARD_DECLINED"');
    const invoiceId = /data-invoice-id="([0-9a-f-]+)" data-status="OPEN"/.exec(pastDue.html)![1]!;
    await post("/cards", card("5555555555554444"));
    const paid = await post(`/invoices/${invoiceId}/pay`);
    expect(paid.status).toBe(200);
    expect(paid.html).toContain("청구서를 결제했습니다");
    expect(paid.html).toContain('data-status="ACTIVE"');
    expect(paid.html).not.toContain("지금 결제");

    // Each invoice as a document, to read or keep.
    const document = await owner.open(`${page}/invoices/${invoiceId}`);
    expect(document.html).toContain('id="supply">99,000원<');
    expect(document.html).toContain('id="vat">9,900원<');
    expect(document.html).toContain('id="total">108,900원<');
    expect(document.html).toContain("1208800767");
    const file = await owner.open(`${page}/invoices/${invoiceId}?download=1`);
    expect(file.response.headers.get("Content-Disposition")).toMatch(/^attachment; filename="invoice-\d{4}-\d{2}-\d{2}-[0-9a-f]{8}\.html"$/);
    expect((await owner.open(`${page}/invoices/${crypto.randomUUID()}`)).status).toBe(404);
  });

  const card = (number: string) => ({ number, expiryMonth: "12", expiryYear: "29", birthOrBusinessRegistrationNumber: "900101", passwordTwoDigits: "00" });
  const invoicesOf = async (workspaceId: string) => (await env.DB.prepare("SELECT status, total_amount AS total FROM invoices WHERE workspace_id = ?").bind(workspaceId).all<Json>()).results;

  it("charges an upgrade only once the owner confirms the amount: the first press shows 공급가액, 부가세 and 합계 and charges nothing", async () => {
    const { owner, workspaceId, page, post } = await billingConsole();
    await post("/cards", card("4242424242424242"));
    const first = await post("/plan", { plan: "PRO" });
    expect(first.status).toBe(200);
    expect(first.html).toContain('id="plan-confirm"');
    expect(first.html).toContain('id="confirm-supply">99,000원<');
    expect(first.html).toContain('id="confirm-vat">9,900원<');
    expect(first.html).toContain('id="confirm-total">108,900원<');
    expect(first.html).toContain("끝자리 4242 카드");
    expect(first.html).toContain("108,900원 결제하고 프로 플랜 시작");
    expect(first.html).toContain('data-plan="FREE"');
    expect(await invoicesOf(workspaceId)).toEqual([]);
    expect(await planOf(workspaceId)).toBe("FREE");

    // A press carrying another amount than the charge would be (a stale or forged form) is shown the amounts again.
    const stale = await owner.post(`${page}/plan`, { plan: "PRO", confirmedAmount: "99000" });
    expect(stale.html).toContain('id="plan-confirm"');
    expect(stale.html).toContain("결제 금액이 108,900원으로 바뀌었습니다");
    expect(await invoicesOf(workspaceId)).toEqual([]);

    const confirmed = await owner.post(`${page}/plan`, { plan: "PRO", confirmedAmount: "108900" });
    expect(confirmed.html).toContain("프로 플랜으로 바꿨습니다");
    expect(confirmed.html).toContain('data-plan="PRO"');
    expect(confirmed.html).not.toContain('id="plan-confirm"');
    expect(await invoicesOf(workspaceId)).toEqual([{ status: "PAID", total: 108_900 }]);
  });

  it("shows this period's jobs against what the paid plan includes, and FREE's against its cap", async () => {
    const { owner, workspaceId, page, post, upgrade } = await billingConsole();
    expect((await post("/cards", card("4242424242424242"))).html).toContain('id="usage-jobs">0 / 300<');
    await upgrade();
    const periodStart = (await env.DB.prepare("SELECT current_period_start AS start FROM subscriptions WHERE workspace_id = ?").bind(workspaceId).first<{ start: number }>())!.start;
    await env.DB.prepare(
      `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 12)
       INSERT INTO jobs (id, workspace_id, billing_workspace_id, provider_code, schema, params, status, created_at, updated_at, deadline_at)
       SELECT lower(hex(randomblob(16))), ?1, ?1, 'sandbox.bank', 'bank.accounts.cb.v1', '{}', 'SUCCEEDED', ?2 + i, ?2 + i, ?2 + i FROM n`,
    )
      .bind(workspaceId, periodStart)
      .run();
    const { html } = await owner.open(page);
    expect(html).toMatch(/id="usage-jobs" data-used="12" data-included="5000">12 \/ 5,000건 포함, 초과분 건당 30원</);
    expect(html).not.toMatch(/id="usage-jobs"[^>]*>[^<]*제한 없음/);
  });

  it("lists the replica's test cards on the sandbox's billing page only, with what each does", async () => {
    const { owner, page } = await billingConsole();
    const sandbox = await owner.open(page);
    expect(sandbox.html).toContain('id="test-cards"');
    expect(sandbox.html).toMatch(/data-test-card="4242424242424242"><td>4242 4242 4242 4242<\/td><td>됨<\/td><td>결제됨</);
    expect(sandbox.html).toMatch(/data-test-card="4000000000000002">.*?거절 CARD_DECLINED/);
    expect(sandbox.html).toMatch(/data-test-card="4000000000000127"><td>[^<]+<\/td><td>거절 \(CARD_DECLINED\)/);
    owner.bindings = { ...(env as never as NonNullable<ConsoleBrowser["bindings"]>), PORTONE_API_URL: "https://api.portone.io" };
    const production = await owner.open(page);
    expect(production.status).toBe(200);
    expect(production.html).not.toContain('id="test-cards"');
  });
});
