import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accountsOf } from "../../sandbox/bank/ledger";
import { type SandboxServer, startSandbox } from "../../sandbox/server";
import { type ScraperServer, startScraper } from "../../scraper-container/server";
import { ContainerScraper } from "../../worker/domain/scraper/container-client";
import { ReportedFailure } from "../../collectors/page-report";

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
    const sessionId = await client.openSession("sandbox.bank", login);
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
