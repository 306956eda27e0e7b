// start-order: 17 (why: vitest.e2e.config.ts)
import { describe, expect, it } from "vitest";
import { client, useStackAndBrowser } from "../support/e2e/stack";

type Json = Record<string, any>;

const { stack, newPage } = useStackAndBrowser();


describe("a credential's holder on the local stack", () => {
  it("opens the manage link in Chromium, sees what is shared and withdraws with one confirmed step", async () => {
    const api = client(stack());
    const loginId = `holder_${crypto.randomUUID().slice(0, 8)}`;
    const credential = await api.json("POST", "/api/v1/credentials", { providerCode: "sandbox.bank", authMethod: "PROVIDER_LOGIN", fields: { loginId, password: "pass_good" }, schemas: ["bank.transactions.cb.v1"], label: "철회할 계좌" });
    expect(credential.status).toBe(201);
    const link = await api.json("POST", `/api/v1/credentials/${credential.body.id}/manage-links`, { expiresInSeconds: 600 });
    expect(link.status).toBe(201);

    const page = await newPage();
    const opened = await page.goto(link.body.url);
    expect(opened!.status()).toBe(200);
    expect(await page.$eval("#shared-schemas", (el) => el.textContent)).toBe("은행 거래내역");
    expect(await page.$eval("#shared", (el) => el.textContent)).toContain("철회할 계좌");

    // The browser's own validation holds the button until the box is ticked.
    await page.click("button[type=submit]");
    expect(await page.$("#withdrawn")).toBeNull();
    await page.click("input[name=confirm]");
    await Promise.all([page.waitForNavigation(), page.click("button[type=submit]")]);
    // The whole page on failure: the alert says why.
    expect(await page.$eval("main", (el) => el.innerHTML)).toContain("동의를 철회했습니다");

    const listed = (await api.json("GET", "/api/v1/credentials")).body.items.find((c: Json) => c.id === credential.body.id);
    expect(listed).toMatchObject({ status: "DELETED", revokedReason: "HOLDER_WITHDREW", consentRecord: { withdrawnAt: expect.any(String) } });
    // The link is used up: opening it again says so.
    const again = await page.goto(link.body.url);
    expect(again!.status()).toBe(401);
  });
});
