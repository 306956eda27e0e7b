import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { Webhook } from "standardwebhooks";
import { type AlertDesk, alertDesk } from "../../../../worker/domain/alerts/alert-desk";
import { NO_PROVIDER } from "../../../../worker/domain/alerts/rules";
import { renewSubscriptions } from "../../../../worker/domain/billing/renewal";
import { changePlan } from "../../../../worker/domain/billing/plan-change";
import { endPeriodNow } from "../../../../worker/domain/billing/test-clock";
import { portOneGateway } from "../../../../worker/domain/billing/portone";
import { openText } from "../../../../worker/domain/vault/envelope";
import { sha256Hex } from "../../../../worker/platform/lib/crypto";
import { SANDBOX_PORTONE_SECRET } from "../../../../sandbox/portone/gateway";
import { call, callJson, createWorkspace } from "../../../support/workers/helpers";
import { alertCode, ConsoleBrowser } from "../../../support/workers/console-browser";

/** The third layer of the security review (docs/security.md, "Third layer: money"), each finding through the real stack. */

type Json = Record<string, any>;

const CARD = { expiryYear: "29", expiryMonth: "12", birthOrBusinessRegistrationNumber: "1208800767", passwordTwoDigits: "00" };
const GOOD_CARD = { number: "4242424242424242", ...CARD };
const REFUSED_AT_REGISTRATION = { number: "4000000000000127", ...CARD };
const INSUFFICIENT_FUNDS = { number: "4000000000009995", ...CARD };

/** A fresh address per caller: card registrations are counted per address. */
const freshAddress = () => `198.19.${Math.floor(Math.random() * 256)}.${1 + Math.floor(Math.random() * 254)}`;

/** A FREE workspace with its managing key, and the billing API as that key calls it from `address`. */
async function billedWorkspace(address = freshAddress()) {
  const ws = await createWorkspace();
  const api = <T = Json>(method: string, path: string, json?: unknown) =>
    callJson<T>(`/api/v1/billing${path}`, { method, key: ws.apiKey, headers: { "CF-Connecting-IP": address }, ...(json === undefined ? {} : { json }) });
  return { ...ws, api, address };
}

/** The replica's own record of what the card company saw: every payment, with the customer it was made for. */
async function gatewayPayments(): Promise<Json[]> {
  return ((await (await fetch(`${env.PORTONE_API_URL}/_sandbox/payments`)).json()) as { items: Json[] }).items;
}

/** The replica's API as anyone holding the merchant's secret calls it (not the service): a payment made under an id of ours. */
const atGateway = (method: string, path: string, body: unknown) =>
  fetch(`${env.PORTONE_API_URL}${path}`, { method, headers: { Authorization: `PortOne ${SANDBOX_PORTONE_SECRET}`, "Content-Type": "application/json" }, body: JSON.stringify(body) }).then(async (r) => ({ status: r.status, body: (await r.json()) as Json }));

const planOf = async (workspaceId: string) => (await env.DB.prepare("SELECT plan, past_due_since AS pastDueSince FROM workspaces WHERE id = ?").bind(workspaceId).first<{ plan: string; pastDueSince: number | null }>())!;

/** `count` finished jobs in the workspace's paid period, all at its start. */
async function runJobs(workspaceId: string, count: number, at: number) {
  await env.DB.prepare(
    `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?2)
     INSERT INTO jobs (id, workspace_id, billing_workspace_id, provider_code, schema, params, status, created_at, updated_at, deadline_at)
     SELECT lower(hex(randomblob(16))), ?1, ?1, 'sandbox.bank', 'bank.accounts.cb.v1', '{}', 'SUCCEEDED', ?3, ?3, ?3 FROM n`,
  )
    .bind(workspaceId, count, at)
    .run();
}

const signed = (body: string, secret = env.PORTONE_WEBHOOK_SECRET!) => {
  const id = `msg_${crypto.randomUUID()}`;
  const at = new Date();
  return { "webhook-id": id, "webhook-timestamp": String(Math.floor(at.getTime() / 1000)), "webhook-signature": new Webhook(secret).sign(id, at, body) };
};
const deliver = (body: string, headers: Record<string, string>, address = freshAddress()) =>
  call("/webhooks/portone", { method: "POST", headers: { "Content-Type": "application/json", "CF-Connecting-IP": address, ...headers }, body });

describe("usage past the plan when the owner cancels", () => {
  async function cancelledPastTheAllowance(renewalCard: typeof GOOD_CARD) {
    const ws = await billedWorkspace();
    await ws.api("POST", "/payment-methods", { card: GOOD_CARD });
    expect((await ws.api("POST", "/subscription/plan", { plan: "PRO" })).body.plan).toBe("PRO");
    if (renewalCard !== GOOD_CARD) await ws.api("POST", "/payment-methods", { card: renewalCard });
    const periodStart = Date.parse((await ws.api("GET", "/subscription")).body.currentPeriodStart);
    // 5,003 jobs: three past PRO's 5,000, then the owner cancels at once.
    await runJobs(ws.workspaceId, 5_003, periodStart);
    expect((await ws.api("POST", "/subscription/cancel")).body.pendingPlan).toBe("FREE");
    // The sandbox's test clock ends the period: the booked FREE applies, and the period is billed all the same.
    await endPeriodNow(env, portOneGateway(env), ws.workspaceId);
    await endPeriodNow(env, portOneGateway(env), ws.workspaceId).catch(() => undefined);
    await renewSubscriptions(env, portOneGateway(env), Date.now(), ws.workspaceId);
    return { ...ws, periodStart };
  }

  it("bills the period's jobs past the allowance on an overage invoice, paid with the card, once, and moves to FREE", async () => {
    const { api, workspaceId, periodStart } = await cancelledPastTheAllowance(GOOD_CARD);
    expect((await api("GET", "/subscription")).body).toMatchObject({ plan: "FREE", status: "NONE" });
    const overage = (await api("GET", "/invoices")).body.items.filter((i: Json) => i.kind === "OVERAGE");
    expect(overage).toEqual([
      expect.objectContaining({ plan: "PRO", status: "PAID", periodStart: new Date(periodStart).toISOString(), overageJobs: 3, overageAmount: 90, supplyAmount: 90, vatAmount: 9, totalAmount: 99, chargedAmount: 99 }),
    ]);
    expect((await gatewayPayments()).filter((p) => p.id === overage[0].id)).toMatchObject([{ status: "PAID", amount: { total: 99 }, currency: "KRW", customer: { id: workspaceId } }]);
    expect((await planOf(workspaceId)).plan).toBe("FREE");
  });

  it("keeps a refused overage bill open, past due on its schedule, until the owner pays it now", async () => {
    const { api, workspaceId } = await cancelledPastTheAllowance(INSUFFICIENT_FUNDS);
    const [bill] = (await api("GET", "/invoices")).body.items.filter((i: Json) => i.kind === "OVERAGE");
    expect(bill).toMatchObject({ status: "OPEN", totalAmount: 99, lastFailureCode: "INSUFFICIENT_FUNDS" });
    const { attempts, next } = (await env.DB.prepare("SELECT attempts, next_attempt_at AS next FROM invoices WHERE id = ?").bind(bill.id).first<{ attempts: number; next: number }>())!;
    expect(attempts).toBe(1);
    const { pastDueSince, plan } = await planOf(workspaceId);
    expect(plan).toBe("FREE");
    expect(next - pastDueSince!).toBe(86_400_000);
    // Not due yet: the cron leaves it; a day on it is charged again (and refused again).
    await renewSubscriptions(env, portOneGateway(env), next - 1000, workspaceId);
    expect((await api("GET", `/invoices/${bill.id}`)).body.lastFailureCode).toBe("INSUFFICIENT_FUNDS");
    await renewSubscriptions(env, portOneGateway(env), next + 1000, workspaceId);
    expect((await env.DB.prepare("SELECT attempts FROM invoices WHERE id = ?").bind(bill.id).first<{ attempts: number }>())!.attempts).toBe(2);

    await api("POST", "/payment-methods", { card: { ...GOOD_CARD, number: "5555555555554444" } });
    const paid = await api("POST", `/invoices/${bill.id}/pay`);
    expect(paid.status, JSON.stringify(paid.body)).toBe(200);
    expect(paid.body).toMatchObject({ kind: "OVERAGE", status: "PAID" });
    expect(await planOf(workspaceId)).toEqual({ plan: "FREE", pastDueSince: null });
    expect((await api("GET", "/subscription")).body.status).toBe("NONE");
  });
});

describe("parallel upgrades and renewals", () => {
  const paidCharges = async (workspaceId: string) => (await gatewayPayments()).filter((p) => p.customer?.id === workspaceId && p.status === "PAID");

  it("opens one invoice for five upgrades at once, and the gateway charges it once; five renewal runs over one period end likewise", async () => {
    const { api, workspaceId } = await billedWorkspace();
    await api("POST", "/payment-methods", { card: GOOD_CARD });
    // Five upgrades at once, as five requests' handlers run them (the API's own requests reach the gateway staggered).
    const outcomes = await Promise.allSettled(Array.from({ length: 5 }, () => changePlan(env, portOneGateway(env), workspaceId, "PRO")));
    // Each asked for PRO and has it: the ones that lost the race found the one invoice paid, or the plan bought.
    for (const outcome of outcomes) if (outcome.status === "rejected") expect(outcome.reason).toMatchObject({ code: "SAME_PLAN_CHANGE" });
    expect((await planOf(workspaceId)).plan).toBe("PRO");
    expect((await api("GET", "/invoices")).body.items.map((i: Json) => [i.kind, i.status])).toEqual([["UPGRADE", "PAID"]]);
    expect(await paidCharges(workspaceId)).toHaveLength(1);
    const ledger = (await env.DB.prepare("SELECT entry FROM billing_ledger WHERE workspace_id = ? ORDER BY entry").bind(workspaceId).all<{ entry: string }>()).results;
    expect(ledger.map((r) => r.entry)).toEqual(["INVOICED", "PAID"]);

    // Runs over the same period's end (the cron beside the test clock) open one renewal and charge it once.
    const periodEnd = Date.parse((await api("GET", "/subscription")).body.currentPeriodEnd);
    await Promise.all(Array.from({ length: 5 }, () => renewSubscriptions(env, portOneGateway(env), periodEnd + 1000, workspaceId)));
    expect((await api("GET", "/invoices")).body.items.filter((i: Json) => i.kind === "RENEWAL").map((i: Json) => i.status)).toEqual(["PAID"]);
    expect(await paidCharges(workspaceId)).toHaveLength(2);

    // And five requests to the API at once.
    const other = await billedWorkspace();
    await other.api("POST", "/payment-methods", { card: GOOD_CARD });
    const answers = await Promise.all(Array.from({ length: 5 }, () => other.api("POST", "/subscription/plan", { plan: "PRO" })));
    for (const answer of answers) expect(answer.status === 200 || answer.body.code === "SAME_PLAN_CHANGE", JSON.stringify(answer.body)).toBe(true);
    expect((await other.api("GET", "/invoices")).body.items.map((i: Json) => i.status)).toEqual(["PAID"]);
    expect(await paidCharges(other.workspaceId)).toHaveLength(1);
  });
});

describe("card registration", () => {
  it("needs a confirmed e-mail: the acting person's in the console, the workspace owner's through the API", async () => {
    const owner = new ConsoleBrowser(freshAddress());
    const { email, workspaceId } = await owner.signUp();
    const page = `/console/w/${workspaceId}/billing`;
    const addCard = async () => {
      await owner.open(page);
      return owner.post(`${page}/cards`, { number: GOOD_CARD.number, expiryMonth: "12", expiryYear: "29", birthOrBusinessRegistrationNumber: "900101", passwordTwoDigits: "00" });
    };
    const refused = await addCard();
    expect(refused.status).toBe(403);
    expect(alertCode(refused.html)).toBe("WORKSPACE_ACCESS_DENIED");
    const issued = await owner.post(`/console/w/${workspaceId}/keys`, { name: "서버", canManageKeys: "1" });
    const key = /id="issued-secret">([^<]+)</.exec(issued.html)![1]!;
    const byApi = () => callJson<Json>("/api/v1/billing/payment-methods", { method: "POST", key, headers: { "CF-Connecting-IP": freshAddress() }, json: { card: GOOD_CARD } });
    const apiRefused = await byApi();
    expect(apiRefused.status).toBe(403);
    expect(apiRefused.body).toMatchObject({ code: "WORKSPACE_ACCESS_DENIED", message: expect.stringContaining("이메일 주소를 확인하기 전에는 카드를") });
    expect((await env.DB.prepare("SELECT count(*) AS n FROM payment_methods WHERE workspace_id = ?").bind(workspaceId).first<{ n: number }>())!.n).toBe(0);

    await owner.verifyEmail(email);
    expect((await addCard()).html).toContain('data-card-last4="4242"');
    expect((await byApi()).status).toBe(201);
  });

  it("limits attempts per workspace and per address with 429 API_RATE_LIMITED and Retry-After, before the gateway is asked", async () => {
    const address = freshAddress();
    const first = await billedWorkspace(address);
    for (let i = 0; i < 5; i++) expect((await first.api("POST", "/payment-methods", { card: REFUSED_AT_REGISTRATION })).body.code).toBe("CARD_DECLINED");
    const limited = await first.api("POST", "/payment-methods", { card: GOOD_CARD });
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({ code: "API_RATE_LIMITED", message: expect.stringContaining("워크스페이스마다"), requestId: expect.any(String) });
    expect(Number(limited.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect((await first.api("GET", "/payment-methods")).body.items).toEqual([]);

    // The same address acting for other workspaces: ten attempts in all, then refused whatever the workspace.
    const second = await billedWorkspace(address);
    for (let i = 0; i < 4; i++) expect((await second.api("POST", "/payment-methods", { card: REFUSED_AT_REGISTRATION })).status).toBe(402);
    const third = await billedWorkspace(address);
    const byAddress = await third.api("POST", "/payment-methods", { card: GOOD_CARD });
    expect(byAddress.status).toBe(429);
    expect(byAddress.body.message).toContain("주소마다");
    expect((await third.api("GET", "/payment-methods")).body.items).toEqual([]);
    // Another address for that workspace is not held back.
    const elsewhere = await callJson<Json>("/api/v1/billing/payment-methods", { method: "POST", key: third.apiKey, headers: { "CF-Connecting-IP": freshAddress() }, json: { card: GOOD_CARD } });
    expect(elsewhere.status).toBe(201);
    // The tenth refusal within the hour.
    expect((await (await billedWorkspace()).api("POST", "/payment-methods", { card: REFUSED_AT_REGISTRATION })).body.code).toBe("CARD_DECLINED");

    // A run of refusals is the operators' business: the CARD_DECLINED alert is open.
    await expect
      .poll(async () => (await env.DB.prepare("SELECT count(*) AS n FROM operator_alerts WHERE code = 'CARD_DECLINED' AND resolved_at IS NULL").first<{ n: number }>())!.n)
      .toBe(1);
  });
});

describe("reading a payment back", () => {
  /** A workspace whose upgrade was refused: its invoice open, its id free at the gateway for anyone to pay under. */
  async function refusedUpgrade() {
    const ws = await billedWorkspace();
    await ws.api("POST", "/payment-methods", { card: { ...CARD, number: "4000000000000002" } });
    expect((await ws.api("POST", "/subscription/plan", { plan: "PRO" })).body.code).toBe("CARD_DECLINED");
    const [invoice] = (await ws.api("GET", "/invoices")).body.items;
    const [card] = (await env.DB.prepare("SELECT id, sealed_billing_key AS sealed FROM payment_methods WHERE workspace_id = ?").bind(ws.workspaceId).all<{ id: string; sealed: string }>()).results;
    const billingKey = await openText(env.VAULT_MASTER_KEY, [card!.id], card!.sealed);
    return { ...ws, invoice, billingKey };
  }
  const payUnder = (paymentId: string, body: Json) => atGateway("POST", `/payments/${paymentId}/billing-key`, { orderName: "다른 결제", customer: { id: "someone" }, ...body });

  it("records only the payment asked for: a payment under the invoice's id with another card, currency or store is never ours", async () => {
    const { api, workspaceId, invoice, billingKey } = await refusedUpgrade();
    const gateway = portOneGateway(env);
    const expected = { amount: invoice.chargedAmount, billingKeyHashes: [await sha256Hex(billingKey)] };

    // Another card's payment under our invoice's id.
    const foreign = (await atGateway("POST", "/billing-keys", { method: { card: { credential: GOOD_CARD } } })).body.billingKeyInfo.billingKey;
    expect((await payUnder(invoice.id, { billingKey: foreign, amount: { total: invoice.chargedAmount }, currency: "KRW" })).status).toBe(200);
    expect(await gateway.paidPayment(invoice.id, expected)).toBeNull();
    const body = JSON.stringify({ type: "Transaction.Paid", timestamp: new Date().toISOString(), data: { paymentId: invoice.id, storeId: "store-sandbox", transactionId: "tx" } });
    expect(await (await deliver(body, signed(body))).json()).toEqual({ outcome: "ignored" });
    expect((await api("GET", `/invoices/${invoice.id}`)).body.status).toBe("OPEN");
    // The upgrade asked again meets ALREADY_PAID, reads the payment back, and refuses to take it as its own.
    await api("POST", "/payment-methods", { card: GOOD_CARD });
    const again = await api("POST", "/subscription/plan", { plan: "PRO" });
    expect(again.status).toBe(402);
    expect(again.body).toMatchObject({ code: "PAYMENT_FAILED", message: expect.stringContaining("금액·통화·상점·카드") });
    expect((await planOf(workspaceId)).plan).toBe("FREE");

    // The workspace's own card, but in dollars, or in won at another store of the merchant, or another amount.
    const payer = await billedWorkspace();
    await payer.api("POST", "/payment-methods", { card: GOOD_CARD });
    const [card] = (await env.DB.prepare("SELECT id, sealed_billing_key AS sealed FROM payment_methods WHERE workspace_id = ?").bind(payer.workspaceId).all<{ id: string; sealed: string }>()).results;
    const ownKey = await openText(env.VAULT_MASTER_KEY, [card!.id], card!.sealed);
    const own = { amount: 108_900, billingKeyHashes: [await sha256Hex(ownKey)] };
    const paidAs = async (extra: Json) => {
      const id = crypto.randomUUID();
      expect((await payUnder(id, { billingKey: ownKey, amount: { total: 108_900 }, currency: "KRW", ...extra })).status).toBe(200);
      return id;
    };
    expect(await gateway.paidPayment(await paidAs({ currency: "USD" }), own)).toBeNull();
    const elsewhere = await paidAs({ storeId: "store-other" });
    expect(await portOneGateway({ ...env, PORTONE_STORE_ID: "store-live" }).paidPayment(elsewhere, own)).toBeNull();
    expect(await portOneGateway({ ...env, PORTONE_STORE_ID: "store-other" }).paidPayment(elsewhere, own)).toMatchObject({ amount: 108_900 });
    const right = await paidAs({});
    expect(await gateway.paidPayment(right, { ...own, amount: 108_901 })).toBeNull();
    expect(await gateway.paidPayment(right, own)).toMatchObject({ amount: 108_900, billingKeyHash: own.billingKeyHashes[0] });
  });
});

describe("the gateway's webhook alert", () => {
  const occurrences = () =>
    runInDurableObject(alertDesk(env, "WEBHOOK_SIGNATURE_INVALID", NO_PROVIDER), async (_desk: AlertDesk, state) => state.storage.sql.exec<{ n: number }>("SELECT count(*) AS n FROM occurrences").one().n);

  it("is not raised or held by unsigned deliveries naming nothing of ours, and still counts one naming our invoice", async () => {
    const { api } = await billedWorkspace();
    await api("POST", "/payment-methods", { card: { ...CARD, number: "4000000000000002" } });
    await api("POST", "/subscription/plan", { plan: "PRO" });
    const [invoice] = (await api("GET", "/invoices")).body.items;
    const before = await occurrences();

    for (const data of [{ paymentId: crypto.randomUUID() }, { billingKey: "billing-key-guessed" }, {}]) {
      const body = JSON.stringify({ type: "Transaction.Paid", data });
      for (const headers of [{}, signed(body, `whsec_${btoa("another secret of 24 bytes")}`)]) {
        const refused = await deliver(body, headers);
        expect(refused.status).toBe(401);
        expect(await refused.json()).toMatchObject({ code: "WEBHOOK_SIGNATURE_INVALID", requestId: expect.any(String) });
      }
    }
    const garbage = await deliver("not json at all", {});
    expect(garbage.status).toBe(401);

    // One naming our invoice: the gateway with a secret we do not hold, or someone who knows our ids. Counted.
    const ours = JSON.stringify({ type: "Transaction.Paid", data: { paymentId: invoice.id } });
    expect((await deliver(ours, {})).status).toBe(401);
    await expect.poll(occurrences).toBeGreaterThanOrEqual(before + 1);
    await new Promise((resolve) => setTimeout(resolve, 300));
    // Other files' deliveries may count meanwhile; the seven above never do.
    expect((await occurrences()) - before).toBeLessThan(7);
  });
});
