// start-order: 18 (why: vitest.e2e.config.ts)
import { mkdirSync } from "node:fs";
import path from "node:path";
import type { Page } from "puppeteer-core";
import { beforeAll, describe, expect, it } from "vitest";
import { useStackAndBrowser } from "../support/e2e/stack";
import { fromMenu } from "../support/e2e/console-menu";

/** The console's pages as a person uses them at a desk (1280 px) and on a phone (390 px): issue 63. */
const SHOTS = path.resolve(import.meta.dirname, "screenshots");
const { stack, newPage } = useStackAndBrowser();

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
});

const shot = (page: Page, name: string) => page.screenshot({ path: path.join(SHOTS, `console-pages-${name}.png`) });

async function signedIn(width: number): Promise<Page> {
  const page = await newPage({ width });
  await page.goto(`${stack().baseUrl}/console/sign-in`);
  await page.type("#email", stack().demoUser.email);
  await page.type("#password", stack().demoUser.password);
  await Promise.all([page.waitForNavigation(), page.click("main form button[type=submit]")]);
  return page;
}

const visible = (page: Page, selector: string) => page.$eval(selector, (el) => el.checkVisibility());
const headerHeight = (page: Page) => page.$eval("header", (el) => el.getBoundingClientRect().height);

describe("the console's pages in Chromium", () => {
  it("groups the menu: one line on a phone until 메뉴 opens it, the everyday pages in the bar at a desk with 개발자 and 설정 one at a time", async () => {
    const phone = await signedIn(390);
    expect(await headerHeight(phone)).toBeLessThanOrEqual(80);
    expect(await visible(phone, "nav a[href$='/jobs']")).toBe(false);
    await shot(phone, "menu-phone-closed");
    await phone.click("nav summary.menu-toggle");
    expect(await visible(phone, "nav a[href$='/jobs']")).toBe(true);
    await shot(phone, "menu-phone-open");
    await Promise.all([phone.waitForNavigation(), fromMenu(phone, "a[href$='/keys']")]);
    expect(phone.url()).toMatch(/\/keys$/);

    const desk = await signedIn(1280);
    expect(await headerHeight(desk)).toBeLessThanOrEqual(80);
    for (const page of ["overview", "jobs", "schedules", "credentials"]) expect(await visible(desk, `nav a[href$='/${page}']`)).toBe(true);
    expect(await visible(desk, "nav a[href$='/keys']")).toBe(false);
    const group = (name: string) => `nav .menu-group:has(a[href$='/${name}']) summary`;
    await desk.click(group("keys"));
    expect([await visible(desk, "nav a[href$='/keys']"), await visible(desk, "nav a[href$='/webhooks']"), await visible(desk, "nav a[href$='/logs']")]).toEqual([true, true, true]);
    await shot(desk, "menu-desk-developers");
    await desk.click(group("members"));
    expect([await visible(desk, "nav a[href$='/members']"), await visible(desk, "nav a[href$='/keys']")]).toEqual([true, false]);
  });

  it("checks a credential in place: the row shows 확인 중, then the institution's answer, without leaving the list; a GET of the form's address is the list", async () => {
    const page = await signedIn(1280);
    await page.goto(`${stack().baseUrl}${new URL(page.url()).pathname.replace(/\/[a-z-]+$/, "/credentials")}`);
    const list = page.url();
    const row = await page.$$eval("tr[data-credential-id]", (rows) => rows.find((r) => r.textContent!.includes("샌드박스은행") && r.querySelector("form[action$='/check']"))!.id);
    await page.click(`#${row} form[action$='/check'] button`);
    await page.waitForFunction(() => document.getElementById("check-outcome")!.textContent!.includes("확인하고 있습니다"));
    await page.waitForFunction((id) => ["VALID", "INVALID", "UNKNOWN"].includes(document.querySelector<HTMLElement>(`#${id} [data-check]`)!.dataset.check!), { timeout: 60_000 }, row);
    expect(page.url()).toBe(list);
    expect(await page.$eval(`#${row} [data-check]`, (el) => (el as HTMLElement).dataset.check)).toBe("VALID");
    await shot(page, "credentials-checked");

    const formAddress = await page.$eval(`#${row} form[action$='/check']`, (form) => (form as HTMLFormElement).action);
    const answer = await page.goto(formAddress);
    expect([answer!.status(), page.url()]).toEqual([200, list]);
    await page.setViewport({ width: 390, height: 844 });
    expect(await page.$eval(`#${row} form[action$='/check'] button`, (el) => el.getBoundingClientRect().right)).toBeLessThanOrEqual(390);
    await shot(page, "credentials-phone");
  });

  it.each([1280, 390])("sizes the connect page's frame to the hosted page's content at %i px, as the SDK does, and follows it as it grows", async (width) => {
    const page = await signedIn(width);
    await page.goto(`${stack().baseUrl}${new URL(page.url()).pathname.replace(/\/[a-z-]+$/, "/credentials")}`);
    await Promise.all([page.waitForNavigation(), page.click("form[action$='/credentials/connect'] button[type=submit]")]);
    const iframe = (await page.waitForSelector("iframe#registration"))!;
    const frame = (await iframe.contentFrame())!;
    await frame.waitForSelector("#option", { visible: true });
    const content = () => frame.evaluate(() => Math.ceil(document.body.getBoundingClientRect().height));
    const fits = async () => page.waitForFunction((el, h) => Math.abs((el as HTMLIFrameElement).getBoundingClientRect().height - h) <= 3, { timeout: 10_000 }, iframe, await content());
    // The frame's height is the page's (its 1 px borders aside): nothing scrolls inside it, and 연결하기 is in view.
    await fits();
    expect(await frame.evaluate(() => document.documentElement.scrollHeight <= window.innerHeight)).toBe(true);
    await shot(page, `connect-frame-${width}`);
    const before = await iframe.evaluate((el) => el.getBoundingClientRect().height);
    await frame.$eval("#formError", (el) => (el.textContent = "기관 로그인에 실패했습니다. ".repeat(30)));
    await page.waitForFunction((el, h) => (el as HTMLIFrameElement).getBoundingClientRect().height > h + 20, { timeout: 10_000 }, iframe, before);
    await fits();
    expect(await frame.evaluate(() => document.documentElement.scrollHeight <= window.innerHeight)).toBe(true);
    await page.browserContext().close();
  });
});
