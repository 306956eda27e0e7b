// start-order: 11 (why: vitest.e2e.config.ts)
import { describe, expect, it } from "vitest";
import { accountsOf } from "../../sandbox/sandbox-bank/ledger";
import { spectralFindings } from "../support/spectral-lint";
import { client, useStackAndBrowser } from "../support/e2e/stack";
import { operatorSignIn } from "../support/e2e/operator-sign-in";


const { stack, newPage } = useStackAndBrowser();


describe("an institution's page changed mid-run, on the real local stack", () => {
  it("fails the job with the spec's code and gives operators one alert and one redacted report in the operator console", async () => {
    const api = client(stack());
    // A customer of this test's own: the bank changes its pages per login, and the other files use theirs meanwhile.
    const loginId = `redesign_${crypto.randomUUID().slice(0, 8)}`;
    const credential = await api.json("POST", "/api/v1/credentials", { providerCode: "sandbox.bank", authMethod: "PROVIDER_LOGIN", fields: { loginId, password: "pass_good" } });
    expect(credential.status).toBe(201);
    // Every account over three months: units enough that the change lands while the job runs.
    const job = await api.createJob({ providerCode: "sandbox.bank", schema: "bank.transactions.cb.v1", credentialId: credential.body.id, params: { dateRangeStart: "2026-01-01", dateRangeEnd: "2026-03-31" } });
    let changedAfter: { completed: number; total: number } | null = null;
    const done = await api.waitForJob(job.id, async (snapshot) => {
      if (changedAfter === null && snapshot.completedTaskCount >= 1) {
        await fetch(`${stack().sandboxUrl}/bank/sandbox/page-changes?loginId=${loginId}`, { method: "PUT", body: JSON.stringify({ change: "transactions-redesign" }) });
        changedAfter = { completed: snapshot.completedTaskCount, total: snapshot.totalTaskCount };
      }
    });
    // Changed with units still to collect: the ones before it were committed, the rest met the new page.
    expect(changedAfter!.completed).toBeLessThan(changedAfter!.total);
    expect(done).toMatchObject({ kind: "Failed", error: { code: "PROVIDER_RESPONSE_MALFORMED", category: "TRANSIENT" } });

    // The operator signs in to the console with the authenticator's code.
    const page = await newPage();
    await operatorSignIn(page, stack());
    expect(new URL(page.url()).pathname).toBe("/admin");

    await page.goto(`${stack().baseUrl}/admin/alerts`);
    const alerts = await page.$$eval("tr[data-alert]", (rows) => rows.map((r) => ({ state: r.getAttribute("data-state"), cells: [...r.querySelectorAll("td")].map((td) => td.textContent) })));
    expect(alerts.filter((a) => a.cells[1] === "SCRAPING_RESPONSE_MALFORMED" && a.cells[2] === "sandbox.bank" && a.state === "open")).toHaveLength(1);

    await page.goto(`${stack().baseUrl}/admin/reports`);
    const reports = await page.$$eval("li[data-report][data-state=open] a", (links) => links.map((a) => ({ href: a.getAttribute("href"), text: a.textContent })));
    const ours = reports.filter((r) => r.text?.includes("collect bank.transactions.cb.v1") && r.text.includes("SCRAPING_RESPONSE_MALFORMED"));
    expect(ours).toHaveLength(1);
    await page.goto(`${stack().baseUrl}${ours[0]!.href}`);
    const shown = await page.evaluate(() => ({
      surprise: document.querySelector("[data-field=surprise]")?.textContent,
      html: document.querySelector("[data-field=html]")?.textContent ?? "",
      screenshot: (document.querySelector("img") as HTMLImageElement | null)?.naturalWidth ?? 0,
    }));
    expect(shown.surprise).toBe("SCRAPING_RESPONSE_MALFORMED");
    expect(shown.html).toContain("tx-memo");
    for (const account of accountsOf(loginId)) expect(shown.html).not.toContain(account.accountNumberFormatted);
    // The screenshot decodes as an image in a real browser.
    expect(shown.screenshot).toBeGreaterThan(0);

    // The operators' own OpenAPI document, open to the signed-in console, passes the same Spectral rulesets as the partners'.
    const adminDocument = JSON.parse((await page.evaluate(() => fetch("/admin/api/openapi.json").then((r) => r.text()))) as string);
    expect(adminDocument.paths).toHaveProperty("/reports/{id}/close");
    // The local stack serves it over http; a deployment over https, which is what the rulesets judge (as the partners' lint does).
    adminDocument.servers[0].url = adminDocument.servers[0].url.replace(stack().baseUrl, "https://api.collect-edge.kr");
    expect((await spectralFindings(JSON.stringify(adminDocument), "admin-openapi.json")).errors).toEqual({});
    await page.browserContext().close();
  });
});
