// start-order: 3 (why: vitest.e2e.config.ts)
import { mkdirSync } from "node:fs";
import path from "node:path";
import type { Page } from "puppeteer-core";
import { beforeAll, describe, expect, it } from "vitest";
import { client, useStackAndBrowser } from "../support/e2e/stack";
import { NAMED_WORKSPACES } from "../support/e2e/workspaces";
import { fromMenu } from "../support/e2e/console-menu";
import { mailedLink } from "../support/e2e/mailed-link";

const SHOTS = path.resolve(import.meta.dirname, "screenshots");
// One month of three accounts: three units, enough to follow progress to the end.
const RANGE = { dateRangeStart: "2026-01-01", dateRangeEnd: "2026-01-31" };

const { stack, newPage } = useStackAndBrowser();

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
});

const shot = (page: Page, name: string) => page.screenshot({ path: path.join(SHOTS, `console-${name}.png`), fullPage: true });

async function submit(page: Page, selector = "main form button[type=submit]") {
  await Promise.all([page.waitForNavigation(), page.click(selector)]);
}

/** Fills the sign-up form for a workspace of the demo's business; the caller submits it. */
async function fillSignUp(page: Page, email: string, password: string, workspaceName: string) {
  await page.goto(`${stack().baseUrl}/console/sign-up`);
  await page.type("#email", email);
  await page.type("#password", password);
  await page.type("#workspaceName", workspaceName);
  await page.type("#businessNumber", "120-88-00767");
}

async function signIn(page: Page, email: string, password: string) {
  await page.goto(`${stack().baseUrl}/console/sign-in`);
  await page.type("#email", email);
  await page.type("#password", password);
  await submit(page);
}

/** Starts a refresh from the jobs page and lands on the new job's page. */
async function refresh(page: Page, target: string) {
  await page.select("#target", target);
  await page.$eval("#dateRangeStart", (el, v) => ((el as HTMLInputElement).value = v), RANGE.dateRangeStart);
  await page.$eval("#dateRangeEnd", (el, v) => ((el as HTMLInputElement).value = v), RANGE.dateRangeEnd);
  await submit(page, "form[action$='/jobs'] button[type=submit]");
}

describe("the console in Chromium against the local stack", () => {
  it("signs up, refuses a wrong password then signs in, and issues a key that calls the API", async () => {
    const page = await newPage({ width: 390 });
    const email = `owner-${Date.now()}@example.co.kr`;
    const password = "a long enough password";
    await fillSignUp(page, email, password, "콘솔 테스트 회사");
    await shot(page, "1-sign-up");
    await submit(page);
    expect(page.url()).toMatch(/\/console\/w\/[0-9a-f-]+\/keys$/);

    await Promise.all([page.waitForNavigation(), fromMenu(page, "form[action='/console/sign-out'] button")]);
    expect(page.url()).toMatch(/\/console\/sign-in$/);
    await signIn(page, email, "not the password");
    expect(await page.$eval("[role=alert]", (el) => el.getAttribute("data-code"))).toBe("INVALID_CREDENTIALS");
    await shot(page, "2-sign-in-wrong-password");
    await page.type("#password", password);
    await page.$eval("#email", (el, v) => ((el as HTMLInputElement).value = v), email);
    await submit(page);
    expect(page.url()).toMatch(/\/console\/w\/[0-9a-f-]+\/jobs$/);

    await fromMenu(page, "a[href$='/keys']");
    await page.waitForSelector("#name");
    await page.type("#name", "배치 서버");
    await submit(page);
    const secret = await page.$eval("#issued-secret", (el) => el.textContent!);
    await shot(page, "3-api-key-issued");
    const providers = await client(stack(), secret).json("GET", "/api/v1/providers");
    expect(providers.status).toBe(200);

    // A colleague invited from the members page follows the mailed link, chooses a password and is in.
    const colleague = `colleague-${Date.now()}@example.co.kr`;
    await fromMenu(page, "a[href$='/members']");
    await page.waitForSelector("#invite-email");
    await page.type("#invite-email", colleague);
    await submit(page, "form[action$='/members/invite'] button[type=submit]");
    expect(await page.$$eval("[data-invitation-email]", (rows) => rows.map((r) => r.getAttribute("data-invitation-email")))).toEqual([colleague]);
    const invited = await newPage({ width: 390 });
    await invited.goto(await mailedLink(colleague));
    await shot(invited, "3b-invitation");
    await invited.type("#password", "another long password");
    await submit(invited);
    const workspace = /\/console\/w\/[0-9a-f-]+/.exec(page.url())![0];
    expect(invited.url()).toBe(`${stack().baseUrl}${workspace}/jobs`);
    await page.goto(`${stack().baseUrl}${workspace}/members`);
    expect(await page.$$eval("[data-member-email]", (rows) => rows.map((r) => [r.getAttribute("data-member-email"), r.querySelector("[data-role]")!.getAttribute("data-role")]))).toEqual([
      [colleague, "member"],
      [email, "owner"],
    ]);
  });

  it("shows the workspace's API requests on the Logs page, finds one by its request id, keeps results as long as the owner sets, and deletes a job's results", async () => {
    const page = await newPage({ width: 390 });
    await fillSignUp(page, `logs-${Date.now()}@example.co.kr`, "a long enough password", "기록 테스트 회사");
    await submit(page);
    const workspace = /\/console\/w\/[0-9a-f-]+/.exec(page.url())![0];
    await page.type("#name", "기록 키");
    await submit(page);
    const secret = await page.$eval("#issued-secret", (el) => el.textContent!);
    const missing = await client(stack(), secret).json("GET", "/api/v1/data-jobs/00000000-0000-4000-8000-000000000000");
    expect(missing.status).toBe(404);
    const requestId = String(missing.body.requestId);

    // Written after the answer, through a queue: the page shows it within seconds.
    await fromMenu(page, "a[href$='/logs']");
    for (const deadline = Date.now() + 20_000; !(await page.$(`tr[data-request-id="${requestId}"]`)); await new Promise((r) => setTimeout(r, 500))) {
      expect(Date.now()).toBeLessThan(deadline);
      await page.reload();
    }
    expect(await page.$eval(`tr[data-request-id="${requestId}"]`, (row) => row.textContent)).toContain(String(missing.body.code));
    await page.type("#requestId", requestId);
    await submit(page, "main form button[type=submit]");
    expect(page.url()).toBe(`${stack().baseUrl}${workspace}/logs/${requestId}`);
    expect(JSON.parse(await page.$eval("#error-body", (el) => el.textContent!))).toMatchObject({ code: missing.body.code, requestId });
    await shot(page, "4-request-log");

    await fromMenu(page, "a[href$='/results-retention']");
    await page.waitForSelector("#retention-days");
    await page.type("#retention-days", "3");
    await submit(page, "form[action$='/results-retention'] button[type=submit]");
    expect(await page.$eval("#retention-now strong", (el) => el.textContent)).toBe("3일");
    expect((await client(stack(), secret).json("GET", "/api/v1/results-retention")).body).toMatchObject({ days: 3 });

    // A job with nothing to log in with fails at once; its owner deletes its results from its page, ticking the box first.
    await page.goto(`${stack().baseUrl}${workspace}/jobs`);
    await refresh(page, "sandbox.bank|bank.accounts.cb.v1");
    const jobId = page.url().split("/").at(-1)!;
    await page.click("#delete-results input[type=checkbox]");
    await submit(page, "#delete-results button[type=submit]");
    expect(await page.$eval("main", (el) => el.textContent)).toMatch(/결과 0건이 .+에 삭제되었습니다/);
    expect(await page.$("#results-deleted")).not.toBeNull();
    expect((await client(stack(), secret).json("GET", `/api/v1/data-jobs/${jobId}/results`)).status).toBe(410);
  });

  it("upgrades to PRO with a card after a declined one, pays a refused renewal when past due, and moves back to FREE at the period's end", async () => {
    const page = await newPage({ width: 390 });
    const payer = `payer-${Date.now()}@example.co.kr`;
    await fillSignUp(page, payer, "a long enough password", "결제 테스트 회사");
    await submit(page);
    // Only a person whose address is confirmed registers cards: the mailed link first.
    const workspacePage = page.url();
    await page.goto(await mailedLink(payer, "verify-email"));
    await submit(page);
    await page.goto(workspacePage);
    await fromMenu(page, "a[href$='/billing']");
    await page.waitForSelector("#card-number");
    const addCard = async (number: string) => {
      for (const [field, value] of [["#card-number", number], ["#card-expiry-month", "12"], ["#card-expiry-year", "29"], ["#card-owner", "900101"], ["#card-password", "00"]] as const) await page.type(field, value);
      await submit(page, "form[action$='/billing/cards'] button[type=submit]");
    };
    // An upgrade charges only from its confirmation, which shows the amount with VAT first.
    const upgrade = async () => {
      await submit(page, "form[action$='/billing/plan'] button[type=submit]");
      expect(await page.$eval("#confirm-total", (el) => el.textContent)).toBe("108,900원");
      await submit(page, "#plan-confirm form button[type=submit]");
    };
    await addCard("4000 0000 0000 0002");
    await upgrade();
    expect(await page.$eval("[role=alert]", (el) => el.getAttribute("data-code"))).toBe("CARD_DECLINED");
    await shot(page, "10-billing-declined");
    await addCard("4242 4242 4242 4242");
    await upgrade();
    expect(await page.$eval("#plan", (el) => [el.getAttribute("data-plan"), el.getAttribute("data-status")])).toEqual(["PRO", "ACTIVE"]);
    expect(await page.$$eval("tr[data-invoice-id]", (rows) => rows.map((r) => [r.getAttribute("data-status"), r.textContent!.includes("108,900원")]))).toEqual([["PAID", true]]);
    await shot(page, "11-billing-pro");
    await submit(page, "form[action$='/billing/cancel'] button[type=submit]");
    expect(await page.$eval("#pending-change", (el) => el.getAttribute("data-pending"))).toBe("FREE");
    await submit(page, "form[action$='/billing/withdraw-change'] button[type=submit]");
    expect(await page.$("#pending-change")).toBeNull();

    // The renewal falls to the card added last, which its company refuses: past due, then paid with another card.
    await addCard("4000 0000 0000 9995");
    await submit(page, "form[action$='/billing/test-clock'] button[type=submit]");
    expect(await page.$eval("#plan", (el) => el.getAttribute("data-status"))).toBe("PAST_DUE");
    expect(await page.$eval("tr[data-status=OPEN] [data-failure]", (el) => el.getAttribute("data-failure"))).toBe("INSUFFICIENT_FUNDS");
    await shot(page, "12-billing-past-due");
    await addCard("5555 5555 5555 4444");
    await submit(page, "form[action$='/pay'] button[type=submit]");
    expect(await page.$eval("#plan", (el) => el.getAttribute("data-status"))).toBe("ACTIVE");
    expect(await page.$$eval("tr[data-invoice-id]", (rows) => rows.map((r) => r.getAttribute("data-status")))).toEqual(["PAID", "PAID"]);

    // Downgrading books FREE for the period's end, which the test clock brings now.
    await submit(page, "form[action$='/billing/cancel'] button[type=submit]");
    await submit(page, "form[action$='/billing/test-clock'] button[type=submit]");
    expect(await page.$eval("#plan", (el) => [el.getAttribute("data-plan"), el.getAttribute("data-status")])).toEqual(["FREE", "NONE"]);
  });

  it("adds a bank login through the hosted registration page, which the credentials list then shows as live", async () => {
    const page = await newPage({ width: 390 });
    await fillSignUp(page, `adder-${Date.now()}@example.co.kr`, "a long enough password", "등록 테스트 회사");
    await submit(page);
    await page.goto(page.url().replace(/\/keys$/, "/credentials"));
    expect(await page.$$("tbody tr")).toHaveLength(0);
    await submit(page, "form[action$='/credentials/connect'] button[type=submit]");

    const frame = (await (await page.waitForSelector("iframe#registration"))!.contentFrame())!;
    await frame.waitForSelector("#option", { visible: true });
    const bankLogin = await frame.$$eval("#option option", (options) => options.find((o) => o.textContent === "샌드박스은행 (아이디 로그인)")!.value);
    await frame.select("#option", bankLogin);
    await frame.type("#f_loginId", "user_good");
    await frame.type("#f_password", "pass_good");
    await shot(page, "4b-add-credential");
    await Promise.all([page.waitForNavigation(), frame.click("#submit")]);
    expect(page.url()).toMatch(/\/credentials\?added=1$/);
    expect(await page.$$eval("tbody [data-status=ACTIVE]", (els) => els.map((el) => el.closest("tr")!.textContent))).toEqual([expect.stringContaining("샌드박스은행")]);
    expect(await page.content()).not.toContain("pass_good");
    await shot(page, "4c-credential-added");
  });

  it("refreshes a bank job and follows its progress to Succeeded, with a records preview and its CSV", async () => {
    const page = await newPage({ width: 390 });
    await signIn(page, stack().demoUser.email, stack().demoUser.password);
    expect(page.url()).toMatch(/\/jobs$/);
    // The seeded credentials the refresh will use, each live.
    await page.goto(page.url().replace(/\/jobs$/, "/credentials"));
    expect(await page.$$eval("tbody [data-status=ACTIVE]", (els) => els.length)).toBeGreaterThanOrEqual(3);
    await shot(page, "4a-credentials");
    await page.goBack();
    await refresh(page, "sandbox.bank|bank.transactions.cb.v1");
    expect(page.url()).toMatch(/\/jobs\/[0-9a-f-]{36}$/);
    await shot(page, "4-job-in-progress");
    // The page polls and reloads itself once the job has finished.
    await page.waitForSelector("#job-status [data-kind=Succeeded]", { timeout: 480_000 });
    const rows = await page.$$eval("#preview tbody tr", (trs) => trs.length);
    expect(rows).toBeGreaterThan(0);
    await shot(page, "5-job-succeeded");
    const csv = await page.$eval("#csv-download", async (a) => {
      const res = await fetch((a as HTMLAnchorElement).href);
      return { type: res.headers.get("Content-Type"), bytes: Array.from(new Uint8Array(await res.arrayBuffer())) };
    });
    expect(csv.type).toBe("text/csv;charset=UTF-8");
    const text = new TextDecoder().decode(new Uint8Array(csv.bytes));
    expect(csv.bytes.slice(0, 3)).toEqual([0xef, 0xbb, 0xbf]);
    expect(text.trim().split("\n").length).toBeGreaterThan(rows);

    await fromMenu(page, "a[href$='/jobs']");
    await page.waitForSelector("#status");
    await page.select("#status", "SUCCEEDED");
    await submit(page, "form[method=get] button[type=submit]");
    expect(await page.$$eval("tbody [data-kind=Succeeded]", (els) => els.length)).toBeGreaterThan(0);
    expect(await page.$$eval("tbody [data-kind=Failed]", (els) => els.length)).toBe(0);
    await shot(page, "6-jobs-filtered");

    // The overview draws the day's jobs with uPlot, served by the worker under the page's policy.
    await fromMenu(page, "a[href$='/overview']");
    await page.waitForSelector("#jobs-chart[data-drawn=true] canvas");
    // The job just run is in today's count (the last day the chart draws).
    expect(await page.$eval("#overview-data", (el) => JSON.parse(el.textContent!).succeeded.at(-1))).toBeGreaterThanOrEqual(1);
    await page.waitForSelector("#records-chart[data-drawn=true] canvas");
    await shot(page, "6b-overview");
  });

  it("shows a failed job's Korean message and next action, and downloads its (empty) CSV", async () => {
    const page = await newPage({ width: 390 });
    // A workspace whose stored bank login the sandbox bank refuses, so its jobs fail with LOGIN_FAILED.
    const { user } = NAMED_WORKSPACES["console/login-failed"];
    await signIn(page, user.email, user.password);
    await refresh(page, "sandbox.bank|bank.accounts.cb.v1");
    await page.waitForSelector("#job-status [data-kind=Failed]", { timeout: 480_000 });
    expect(await page.$eval("section[role=alert]", (el) => el.getAttribute("data-code"))).toBe("LOGIN_FAILED");
    expect(await page.$eval("#failure-message", (el) => el.textContent)).toMatch(/기관 로그인에 실패했습니다/);
    expect(await page.$eval("#next-action", (el) => el.textContent)).toMatch(/자격 증명/);
    await shot(page, "7-job-failed");
    const csv = await page.$eval("#csv-download", async (a) => {
      const res = await fetch((a as HTMLAnchorElement).href);
      return { status: res.status, text: await res.text() };
    });
    expect(csv.status).toBe(200);
    expect(csv.text.trim().split("\n")).toHaveLength(1);
  });

  it("approves a command-line client's device code, whose next poll receives a working key", async () => {
    const started = (await (await fetch(`${stack().baseUrl}/oauth/device_authorization`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ clientName: "collect CLI", platform: "linux x64, Node 22" }) })).json()) as Record<string, any>;
    const poll = async () => {
      const res = await fetch(`${stack().baseUrl}/oauth/device/token`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ device_code: started.device_code }) });
      return { status: res.status, body: (await res.json()) as Record<string, any> };
    };
    expect((await poll()).body.error).toBe("authorization_pending");

    const page = await newPage({ width: 390 });
    // Signed out, the verification link goes through sign-in and comes back with the code filled in.
    await page.goto(started.verification_uri_complete);
    expect(page.url()).toContain("/console/sign-in?next=");
    await page.type("#email", stack().demoUser.email);
    await page.type("#password", stack().demoUser.password);
    await submit(page);
    // The page shows what asks before anyone approves it.
    expect(await page.$eval("#device-client", (el) => el.textContent)).toBe("collect CLI");
    expect(await page.$eval("#device-platform", (el) => el.textContent)).toBe("linux x64, Node 22");
    expect(await page.$eval("#device-rights", (el) => el.textContent)).toContain("90일 뒤 만료");
    await shot(page, "8-device-approval");
    await Promise.all([page.waitForNavigation(), page.click("button[value=approve]")]);
    expect(await page.$eval("#device-decided", (el) => el.textContent)).toContain("collect CLI");
    await shot(page, "9-device-approved");

    await new Promise((r) => setTimeout(r, started.interval * 1000));
    const granted = await poll();
    expect(granted.status).toBe(200);
    expect((await client(stack(), granted.body.access_token).json("GET", "/api/v1/schemas")).status).toBe(200);
  });
});

describe("the API reference page", () => {
  it("renders the OpenAPI document with Scalar, every $ref resolved into its schema's fields, and sends a request from its client to this stack, nothing arriving from elsewhere", async () => {
    const page = await newPage();
    await page.setViewport({ width: 1280, height: 900 });
    const elsewhere: string[] = [];
    page.on("requestfinished", (request) => void (/^https?:/.test(request.url()) && new URL(request.url()).origin !== stack().baseUrl && elsewhere.push(request.url())));
    await page.goto(`${stack().baseUrl}/api/v1/docs`);
    // innerText lays the page out: read a few times a second, not on each of the thousands of mutations Scalar renders with.
    await page.waitForFunction(`document.body.innerText.includes("데이터 수집 API") && document.body.innerText.includes("providerCode")`, { timeout: 60_000, polling: 250 });
    await page.screenshot({ path: path.join(SHOTS, "api-reference.png") });
    // The job creation's request body, a $ref in the document, shown as its fields.
    const text = String(await page.evaluate(`document.body.innerText`));
    expect(text).toContain("CreateDataJobRequest");
    expect(text).toContain("dateRangeStart");
    expect(text).not.toContain("$ref");
    expect(text).not.toContain("#/components/schemas");
    await page.type("input[placeholder=Token]", stack().apiKey);
    await page.goto(`${stack().baseUrl}/api/v1/docs#tag/catalog/GET/api/v1/providers`);
    await page.waitForFunction(`[...document.querySelectorAll("button")].some((b) => b.innerText.includes("(get /api/v1/providers)"))`, { timeout: 20_000, polling: 250 });
    await page.evaluate(`[...document.querySelectorAll("button")].find((b) => b.innerText.includes("(get /api/v1/providers)")).click()`);
    // The request client sends from the browser to this stack with the key typed in above.
    const sendButton = `[...document.querySelectorAll("button")].find((b) => b.innerText.includes("Send get request to"))`;
    await page.waitForFunction(sendButton, { timeout: 20_000, polling: 250 });
    const [answer] = await Promise.all([
      page.waitForResponse((r) => r.url() === `${stack().baseUrl}/api/v1/providers` && r.request().method() === "GET"),
      page.evaluate(`${sendButton}.click()`),
    ]);
    expect(answer.request().headers().authorization).toBe(`Bearer ${stack().apiKey}`);
    expect(answer.status()).toBe(200);
    expect(((await answer.json()) as { items: unknown[] }).items.length).toBeGreaterThan(0);
    await page.waitForFunction(`document.body.innerText.includes("sandbox.bank")`, { timeout: 20_000, polling: 250 });
    await page.screenshot({ path: path.join(SHOTS, "api-reference-try-it.png") });
    expect(elsewhere).toEqual([]);
  });
});
