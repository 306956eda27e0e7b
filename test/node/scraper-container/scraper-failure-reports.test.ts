import { randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Page } from "puppeteer-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accountsOf } from "../../../sandbox/sandbox-bank/ledger";
import { type SandboxServer, startSandbox } from "../../../sandbox/server";
import { type ScraperServer, startScraper } from "../../../scraper-container/server";
import { ContainerScraper } from "../../../worker/domain/scraper/container-client";
import { ReportedFailure, reportingUnreadable } from "../../../collectors/kit/page-report";
import { type BrowserPage, ProviderFailure, UnreadablePage } from "../../../collectors/adapter";
import { failureFromRules } from "../../../collectors/kit/failure-text";
import { sandboxBank } from "../../../collectors/sandbox-bank";
import { type FileBrowser, scraperChromium } from "../../support/chromium";

const SECRET = randomBytes(32).toString("base64url");

let sandbox: SandboxServer;
let scraper: ScraperServer;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
  scraper = await startScraper({ port: 0, sharedSecret: SECRET, sandboxBaseUrl: sandbox.url, pageTimeoutMs: 5_000 });
});
afterAll(async () => {
  await scraper?.close();
  await sandbox?.close();
});

/** A login of this test's own (the sandbox's page changes are per login), with the bank's change turned on. */
async function loginWithChange(change: string) {
  const loginId = `report_${randomBytes(4).toString("hex")}`;
  const answer = await fetch(`${sandbox.url}/bank/sandbox/page-changes?loginId=${loginId}`, { method: "PUT", body: JSON.stringify({ change }) });
  expect(await answer.json()).toEqual({ loginId, changes: [change] });
  return { authMethod: "PROVIDER_LOGIN", loginId, password: "pass_good" } as const;
}

async function reportOf(work: Promise<unknown>): Promise<ReportedFailure> {
  const failure = await work.then(
    () => null,
    (err: unknown) => err,
  );
  expect(failure).toBeInstanceOf(ReportedFailure);
  return failure as ReportedFailure;
}

describe("a page the adapter cannot read", () => {
  it("fails the login PROVIDER_RESPONSE_MALFORMED with a report of the unknown page, its personal data redacted in the HTML and the screenshot's page", async () => {
    const login = await loginWithChange("login-interstitial");
    const [account] = accountsOf(login.loginId);
    const failure = await reportOf(new ContainerScraper(scraper.url, SECRET).openSession("sandbox.bank", login));
    expect(failure.code).toBe("PROVIDER_RESPONSE_MALFORMED");
    const { report } = failure;
    expect(report).toMatchObject({ surprise: "SCRAPING_PARSER_NOT_FOUND", step: "login", adapterVersion: "sandbox-bank/2026-11-26", url: expect.stringMatching(/\/bank\/security-notice$/) });
    expect(report.html).toContain("보안카드 재발급 안내");
    // Name, account number, amount and phone number: kept only as shapes.
    for (const personal of ["김하늘", account!.accountNumberFormatted, "1,250,000", "010-2345-6789"]) expect(report.html).not.toContain(personal);
    expect(report.html).toContain("○○○ 고객님");
    expect(report.html).toContain("#,###,###원");
    expect(report.html).toContain("###-####-####");
    // A JPEG of the redacted page.
    expect(Buffer.from(report.screenshot!, "base64").subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
  });

  it("fails a unit of a known page whose content changed, keeping the session for the next unit", async () => {
    const login = await loginWithChange("transactions-redesign");
    const client = new ContainerScraper(scraper.url, SECRET);
    const { sessionId } = await client.openSession("sandbox.bank", login);
    const [account] = accountsOf(login.loginId);
    const unit = {
      jobId: "j",
      unitIndex: 0,
      schema: "bank.transactions.cb.v1",
      target: { id: account!.accountNumber, attributes: { accountType: account!.accountType, currencyCode: account!.currencyCode } },
      segment: { start: "2026-01-01", end: "2026-01-31" },
      params: {},
    };
    const { report } = await reportOf(client.collect(sessionId, unit));
    expect(report).toMatchObject({ surprise: "SCRAPING_RESPONSE_MALFORMED", step: "collect bank.transactions.cb.v1", url: expect.stringMatching(/\/bank\/transactions$/) });
    expect(report.html).toContain("tx-memo");
    expect(report.html).not.toContain(account!.accountNumberFormatted);
    // The session is still good: the accounts page has not changed.
    expect((await client.collect(sessionId, { ...unit, schema: "bank.accounts.cb.v1", target: null, segment: null })).length).toBeGreaterThan(0);
    await client.closeSession(sessionId);
  });
});

/**
 * A page that hides a customer's data everywhere a redaction by text nodes misses it: the address's query and
 * fragment, a link's query, an event handler, `data-*` attributes, a placeholder, an input's value attribute, a text
 * area, a comment, a template; and, put there by the page's scripts after it loaded, an open shadow root, a same-origin
 * iframe, a canvas drawing and a login id typed into a field.
 */
const NAME = "김하늘";
const ACCOUNT = "110-234-567890";
const EMAIL = "kim.haneul@example.com";
const PHONE = "010-2345-6789";
const BALANCE = "1,250,000";
const TYPED_ID = "haneulkim_login";
const LEAKY_PAGE = `<!doctype html><html><head><meta charset="utf-8"><title>계좌 조회</title></head><body>
<h1>${NAME} 고객님</h1>
<!-- 고객: ${NAME} ${ACCOUNT} ${EMAIL} -->
<a id="detail" href="/bank/detail?acct=${ACCOUNT}&amp;holder=${NAME}#row-3" onclick="openDetail('${ACCOUNT}', '${NAME}')" data-holder="${NAME}" data-acct="110234567890">상세</a>
<form action="/bank/transfer?from=${ACCOUNT}"><label>아이디 <input id="loginId" name="loginId" placeholder="예: ${EMAIL}"></label>
<input id="memo" name="memo" value="${NAME} ${PHONE}"><input type="hidden" name="token" value="${ACCOUNT}">
<textarea id="note">${NAME} ${PHONE}</textarea></form>
<template id="row"><p>${NAME} 고객님 ${ACCOUNT}</p></template>
<div id="host"></div>
<iframe id="frame" src="/frame?acct=${ACCOUNT}" width="300" height="80"></iframe>
<canvas id="chart" width="120" height="40"></canvas>
</body></html>`;
const FRAME_PAGE = `<!doctype html><html><head><meta charset="utf-8"></head><body><p>${NAME} 고객님 잔액 ${BALANCE}원</p></body></html>`;

describe("a report of a page that hides personal data outside its text", () => {
  let site: Server;
  let origin: string;
  let browser: FileBrowser;
  let page: Page;

  beforeAll(async () => {
    site = createServer((req, res) => {
      res.writeHead(200, { "Content-Type": "text/html; charset=utf-8" });
      res.end(req.url?.startsWith("/frame") ? FRAME_PAGE : LEAKY_PAGE);
    });
    await new Promise<void>((resolve) => site.listen(0, "127.0.0.1", resolve));
    origin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
    browser = await scraperChromium();
    page = await (await browser.createBrowserContext()).newPage();
    await page.goto(`${origin}/bank/accounts/110234567890?name=${encodeURIComponent(NAME)}&acct=${ACCOUNT}#token=secret-fragment`, { waitUntil: "load" });
    // What the page's own scripts would do after it loaded, and what a person typed.
    await page.evaluate(`(() => {
      const shadow = document.getElementById("host").attachShadow({ mode: "open" });
      shadow.innerHTML = '<p>' + ${JSON.stringify(NAME)} + ' 고객님 잔액 ' + ${JSON.stringify(BALANCE)} + '원</p><input id="inner" value="' + ${JSON.stringify(PHONE)} + '">';
      const pen = document.getElementById("chart").getContext("2d");
      pen.fillStyle = "#000";
      pen.font = "16px sans-serif";
      pen.fillText(${JSON.stringify(ACCOUNT)}, 2, 20);
    })()`);
    await page.type("#loginId", TYPED_ID);
  });
  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => site?.close(resolve));
  });

  it("keeps none of it in the address, the detail, the HTML or the page the screenshot is taken of", async () => {
    const adapter = { version: "leaky/1", redaction: sandboxBank.redaction };
    const failure = await reportOf(
      reportingUnreadable(adapter, page as unknown as BrowserPage, "login", async () => {
        throw new UnreadablePage("SCRAPING_PARSER_NOT_FOUND", `unknown heading: ${NAME} 고객님 ${ACCOUNT}`);
      }),
    );
    const { report } = failure;
    // The address: scheme, host and path, the path's number shaped; no query, no fragment.
    expect(report.url).toBe(`${origin}/bank/accounts/############`);
    // The adapter's words quote the page: redacted by the same rules.
    expect(report.detail).toBe("unknown heading: ○○○ 고객님 ###-###-######");
    expect(failure.message).toBe(report.detail);

    const html = report.html!;
    for (const personal of [NAME, ACCOUNT, "110234567890", EMAIL, PHONE, BALANCE, TYPED_ID, "secret-fragment", "?acct=", "holder=○"]) expect(html).not.toContain(personal);
    // The structure stays: links and forms without their query, handlers and data attributes as shapes, inputs empty.
    expect(html).toContain('href="/bank/detail"');
    expect(html).toContain('action="/bank/transfer"');
    expect(html).toContain(`onclick="openDetail('###-###-######', '○○○')"`);
    expect(html).toContain('data-holder="○○○"');
    expect(html).toContain('placeholder="예: ○○○@○○○"');
    expect(html).toMatch(/<input id="memo" name="memo" value="">/);
    expect(html).toMatch(/<textarea id="note"><\/textarea>/);
    // A comment is the page's data, not a label: every digit and Hangul letter goes.
    expect(html).toContain("<!-- ○○: ○○○ ###-###-###### ○○○@○○○ -->");
    expect(html).toContain("<template id=\"row\"><p>○○○ 고객님 ###-###-######</p></template>");
    expect(html).toContain('data-report-removed="iframe"');
    expect(html).not.toContain("<iframe");
    expect(Buffer.from(report.screenshot!, "base64").subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));

    // The screenshot is of the live page as the redaction left it: read it back.
    const shown = (await page.evaluate(`(() => {
      const shadow = document.getElementById("host").shadowRoot;
      const chart = document.getElementById("chart");
      return {
        typed: document.getElementById("loginId").value,
        memo: document.getElementById("memo").value,
        note: document.getElementById("note").value,
        placeholder: document.getElementById("loginId").placeholder,
        text: document.body.innerText,
        shadowText: shadow.textContent,
        shadowInput: shadow.getElementById("inner").value,
        frames: document.querySelectorAll("iframe, frame").length,
        inked: chart.getContext("2d").getImageData(0, 0, chart.width, chart.height).data.some((v) => v !== 0),
      };
    })()`)) as Record<string, unknown>;
    expect(shown).toEqual({
      typed: "",
      memo: "",
      note: "",
      placeholder: "예: ○○○@○○○",
      text: expect.not.stringMatching(new RegExp([NAME, ACCOUNT, EMAIL, PHONE, BALANCE].join("|"))),
      shadowText: "○○○ 고객님 잔액 #,###,###원",
      shadowInput: "",
      frames: 0,
      inked: false,
    });
  });

  it("redacts an institution's message leaving any step, report or not", async () => {
    const unknownMessage = failureFromRules([]);
    const failure = await reportingUnreadable({ version: "leaky/1", redaction: sandboxBank.redaction }, null, "login", async () => {
      throw unknownMessage(`${NAME} 고객님(${PHONE}, ${EMAIL})의 계좌 ${ACCOUNT} 요청을 처리하지 못했습니다. [X7731]`);
    }).catch((err: unknown) => err);
    expect(failure).toBeInstanceOf(ProviderFailure);
    expect(failure).toMatchObject({ code: "UNKNOWN", message: "○○○ 고객님(###-####-####, ○○○@○○○)의 계좌 ###-###-###### 요청을 처리하지 못했습니다. [X7731]" });
    expect((failure as Error).stack).not.toContain(ACCOUNT);
  });
});
