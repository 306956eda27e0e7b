// start-order: 8 (why: vitest.e2e.config.ts)
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Frame, Page } from "puppeteer-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startPartnerExample } from "../../examples/partner/server";
import { DEMO_BUSINESS_NUMBER } from "../../scripts/demo-seed";
import { freePort } from "../../scripts/free-port";
import { bankGroundTruth } from "../../sandbox/sandbox-bank/ground-truth";
import { documentsOf } from "../../sandbox/sandbox-taxportal/documents";
import { issueJointCertificate } from "../../sandbox/certificates/issue";
import { client, useStackAndBrowser } from "../support/e2e/stack";

const SHOTS = path.resolve(import.meta.dirname, "screenshots");
const PASSWORD = "pass_good";

const { stack, newPage } = useStackAndBrowser();
let partner: { url: string; close(): Promise<void> };
let otherSite: { url: string; close(): Promise<void> };
let apiKey: string;
let popupApiKey: string;

/** A site on another origin than the partner's (another port on 127.0.0.1), with an empty page to run scripts on. */
async function startOtherSite(): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((_req, res) => {
    res.writeHead(200, { "Content-Type": "text/html; charset=utf-8" });
    res.end('<!doctype html><html lang="ko"><title>다른 사이트</title><body></body></html>');
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  // Workspaces without credentials: the end-user registers the bank login through the UI (one in an iframe, one in a popup).
  apiKey = stack().named["registration/iframe"].apiKey;
  popupApiKey = stack().named["registration/popup"].apiKey;
  partner = await startPartnerExample({ port: await freePort(), serviceUrl: stack().baseUrl, apiKey });
  otherSite = await startOtherSite();
});
afterAll(async () => {
  await otherSite?.close();
  await partner?.close();
});

async function registrationFrame(page: Page): Promise<Frame> {
  const handle = await page.waitForSelector("iframe[title='기관 계정 연결']");
  const frame = (await handle!.contentFrame())!;
  await frame.waitForSelector("#f_loginId", { visible: true });
  return frame;
}

/** Opens the SDK on the partner page for a token issued in the test; the outcome lands in #status. */
async function openWithSdk(page: Page, sessionToken: string, mode: "iframe" | "popup" = "iframe"): Promise<void> {
  await page.evaluate(
    (token, serviceUrl, mode) => {
      const status = document.getElementById("status")!;
      (window as unknown as { CollectSDK: { openRegistration(o: object): void } }).CollectSDK.openRegistration({
        sessionToken: token,
        serviceUrl,
        mode,
        onSuccess: ({ sessionId }: { sessionId: string }) => (status.textContent = `연결되었습니다 ${sessionId}`),
        onError: ({ code }: { code: string }) => (status.textContent = `오류: ${code}`),
      });
    },
    sessionToken,
    stack().baseUrl,
    mode,
  );
}

/** The next popup the page opens. */
function nextPopup(page: Page): Promise<Page> {
  return new Promise((resolve) => page.once("popup", (popup) => resolve(popup!)));
}

async function issueSession(body: Record<string, unknown>, key = apiKey) {
  const issued = await client(stack(), key).json("POST", "/api/v1/registration-sessions", { originAllowlist: [partner.url], ...body });
  expect(issued.status).toBe(201);
  return issued.body as { sessionId: string; sessionToken: string };
}

describe("registration through the SDK and the hosted UI in Chromium", () => {
  it("registers a sandbox bank login without the secret ever leaving the browser in clear, then collects with it", async () => {
    const page = await newPage({ width: 1000 });
    const bodies: { url: string; body: string }[] = [];
    page.on("request", (request) => {
      const body = request.postData();
      if (body) bodies.push({ url: request.url(), body });
    });

    await page.goto(partner.url);
    await page.screenshot({ path: path.join(SHOTS, "1-partner-page.png") });
    await page.click("#connect");
    const frame = await registrationFrame(page);
    await page.screenshot({ path: path.join(SHOTS, "2-registration-ui.png") });
    // The consent text the person reads before submitting, whose version the credential will record.
    const shownText = await frame.$eval("#consentText", (el) => ({ version: (el as HTMLElement).dataset.version, text: el.textContent ?? "" }));
    // It names who asks (this workspace: the partner example's backend holds no partner's name), what will be
    // collected (the option's schemas' titles), for how long, and how the holder withdraws, before anything is sent.
    expect(shownText.text).toContain("registration/iframe이(가) 위에 적힌 자료를 조회하도록");
    expect(shownText.text).toMatch(/수집할 자료: 은행 \S/);
    expect(shownText.text).toContain("동의 기간: 동의한 날부터 365일");
    expect(shownText.text).toContain("연결을 요청한 곳(registration/iframe)에 철회를 요청하거나, 그곳이 보내 준 관리 링크에서 직접 철회할 수 있습니다");

    // The bank locks its ID login after five wrong passwords: the password's help says so before the first try.
    expect(await frame.$eval("#f_password_hint", (el) => el.textContent)).toContain("비밀번호를 5회 틀리면 기관이 로그인을 잠급니다.");

    // A value off the credential-schema pattern is stopped in the browser.
    await frame.type("#f_loginId", "bad id!");
    await frame.type("#f_password", PASSWORD);
    await frame.click("#submit");
    expect(await frame.$eval("#f_loginId", (el) => (el as HTMLInputElement).validity.valid)).toBe(false);
    await page.screenshot({ path: path.join(SHOTS, "3-invalid-input.png") });

    // A wrong password: the bank refuses it while the page waits, and the page says so in place, with the bank's reason
    // and the attempts left; nothing is stored, nothing connected.
    await frame.$eval("#f_loginId", (el) => ((el as HTMLInputElement).value = ""));
    await frame.type("#f_loginId", "user_good");
    await frame.$eval("#f_password", (el) => ((el as HTMLInputElement).value = ""));
    await frame.type("#f_password", "not-the-password");
    await frame.click("#submit");
    await frame.waitForFunction(() => /남은 시도/.test(document.getElementById("formError")?.textContent ?? ""), { timeout: 60_000 });
    expect(await frame.$eval("#formError", (el) => el.textContent)).toMatch(/기관 로그인에 실패했습니다[\s\S]*비밀번호를 5회 틀리면 기관이 로그인을 잠급니다\(이 화면에서 실패한 시도: 1회\)\. 남은 시도: 4회/);
    expect(await page.$eval("#status", (el) => el.textContent ?? "")).not.toMatch(/연결되었습니다/);
    expect((await client(stack(), apiKey).json("GET", "/api/v1/credentials")).body.items).toEqual([]);
    await page.screenshot({ path: path.join(SHOTS, "3b-wrong-password.png") });

    await frame.$eval("#f_password", (el) => ((el as HTMLInputElement).value = ""));
    await frame.type("#f_password", PASSWORD);
    await frame.click("#submit");
    await page.waitForFunction(() => document.getElementById("status")?.textContent?.startsWith("연결되었습니다"), { timeout: 80_000, polling: "mutation" });
    await page.screenshot({ path: path.join(SHOTS, "4-connected.png") });

    const submitted = bodies.find((b) => b.url.endsWith("/connect/api/registrations"));
    expect(submitted).toBeDefined();
    expect(JSON.parse(submitted!.body).envelope).toMatchObject({ kid: expect.any(String), iv: expect.any(String), ct: expect.any(String) });
    for (const { body } of bodies) {
      expect(body).not.toContain(PASSWORD);
      expect(body).not.toContain("user_good");
    }

    const credentialId = await page.$eval("#status", (el) => (el as HTMLElement).dataset.credentialId);
    const api = client(stack(), apiKey);
    const registered = (await api.json("GET", `/api/v1/credentials/${credentialId}`)).body;
    expect(registered).toMatchObject({ providerCode: "sandbox.bank", status: "ACTIVE", consentRecord: { textVersion: shownText.version, providerCodes: ["sandbox.bank"], withdrawnAt: null } });
    const job = await api.createJob({ providerCode: "sandbox.bank", schema: "bank.accounts.cb.v1" });
    const done = await api.waitForJob(job.id);
    expect(done).toMatchObject({ kind: "Succeeded", recordCount: 3 });
    expect((await api.json("GET", `/api/v1/data-jobs/${job.id}/results`)).body.data).toEqual(bankGroundTruth("user_good").accounts);
    await page.browserContext().close();
  });

  it.each([
    ["at 1280x800", 1280, 800],
    ["on a phone, 390x844, full-screen", 390, 844],
  ] as const)("sizes the iframe to the hosted page's content %s, so 연결하기 shows without scrolling the frame", async (_name, width, height) => {
    const page = await newPage({ width });
    await page.goto(partner.url);
    await page.click("#connect");
    const frame = await registrationFrame(page);
    const iframe = (await page.$("iframe[title='기관 계정 연결']"))!;
    // The page posts its height to the SDK, which sizes the frame to it (under 480 px wide, full-screen: at least the
    // screen's height, edge to edge): the frame's viewport holds all of its content.
    const fullScreen = width < 480;
    const expected = async () => {
      const content = await frame.evaluate(() => Math.ceil(document.body.getBoundingClientRect().height));
      return fullScreen ? Math.max(content, height) : content;
    };
    await page.waitForFunction((el, h) => Math.abs((el as HTMLIFrameElement).getBoundingClientRect().height - h) <= 1, { timeout: 10_000 }, iframe, await expected());
    const box = await iframe.evaluate((el) => el.getBoundingClientRect().toJSON() as DOMRect);
    expect(Math.abs(box.height - (await expected()))).toBeLessThanOrEqual(1);
    expect(await frame.evaluate(() => document.documentElement.scrollHeight <= window.innerHeight)).toBe(true);
    if (fullScreen) expect(box).toMatchObject({ left: 0, top: 0, width });
    // 연결하기 is on the screen as the page opens: nothing to scroll, in the frame or around it.
    const submit = await frame.$eval("#submit", (el) => el.getBoundingClientRect().toJSON() as DOMRect);
    expect(box.top + submit.bottom).toBeLessThanOrEqual(height);
    expect(box.top + submit.top).toBeGreaterThanOrEqual(0);
    await page.screenshot({ path: path.join(SHOTS, `2b-registration-ui-${width}.png`) });
    // An optional field says so in its label; a required one does not.
    const labels = await frame.$$eval("#fields label", (els) => els.map((el) => ({ text: el.textContent ?? "", required: (document.getElementById((el as HTMLLabelElement).htmlFor) as HTMLInputElement).required })));
    expect(labels.some((l) => !l.required)).toBe(true);
    for (const label of labels) expect(label.text.endsWith("(선택)")).toBe(!label.required);

    // The frame follows the content as it changes: a refusal shown in place grows the page, and the frame with it.
    // (Long enough to outgrow a phone's screen too: the frame, not the page in it, is what gets taller.)
    await frame.$eval("#formError", (el) => (el.textContent = "기관 로그인에 실패했습니다. ".repeat(40)));
    await page.waitForFunction((el, h) => (el as HTMLIFrameElement).getBoundingClientRect().height > h, { timeout: 10_000 }, iframe, box.height);
    await page.waitForFunction((el, h) => Math.abs((el as HTMLIFrameElement).getBoundingClientRect().height - h) <= 1, { timeout: 10_000 }, iframe, await expected());
    expect(await frame.evaluate(() => document.documentElement.scrollHeight <= window.innerHeight)).toBe(true);
    await page.browserContext().close();
  });

  it("shows a used token as dead and tells the partner page through onError", async () => {
    const page = await newPage();
    const issued = await issueSession({ registrationOptions: [{ kind: "PROVIDER_LOGIN", providerCode: "sandbox.bank" }] });
    await client(stack(), apiKey).json("POST", `/api/v1/registration-sessions/${issued.sessionId}/cancel`);
    await page.goto(partner.url);
    await openWithSdk(page, issued.sessionToken);
    await page.waitForFunction(() => document.getElementById("status")?.textContent === "오류: REGISTRATION_SESSION_ALREADY_CANCELLED", { timeout: 60_000, polling: "mutation" });
    const frame = (await (await page.waitForSelector("iframe"))!.contentFrame())!;
    await frame.waitForSelector("#fatal:not([hidden])");
    await page.screenshot({ path: path.join(SHOTS, "5-cancelled-session.png") });
    await page.browserContext().close();
  });

  it("refuses to talk to a page whose origin is not on the allowlist", async () => {
    const page = await newPage();
    const issued = await issueSession({ registrationOptions: [{ kind: "PROVIDER_LOGIN", providerCode: "sandbox.bank" }], originAllowlist: ["https://elsewhere.example"] });
    await page.goto(partner.url);
    await openWithSdk(page, issued.sessionToken);
    const frame = (await (await page.waitForSelector("iframe"))!.contentFrame())!;
    await frame.waitForSelector("#fatal:not([hidden])");
    expect(await frame.$eval("#fatal", (el) => el.textContent)).toContain("열 수 없습니다");
    expect(await frame.$eval("#form", (el) => (el as HTMLElement).hidden)).toBe(true);
    // The partner learns why through onError, so a wrong allowlist is easy to find.
    await page.waitForFunction(() => document.getElementById("status")?.textContent === "오류: REGISTRATION_SESSION_INVALID_ORIGIN", { timeout: 60_000, polling: "mutation" });
    await page.browserContext().close();
  });

  it("registers a certificate from picked files, showing a wrong password as a clear error first, then collects with it", async () => {
    // The seeded workspace's business: a certificate of another business would be CERT_BIZNO_MISMATCH.
    const cert = await issueJointCertificate({ idn: DEMO_BUSINESS_NUMBER, commonName: "(주)예시파트너고객" });
    // The files as they sit in an NPKI folder: binary DER, which the page sends as base64.
    const dir = mkdtempSync(path.join(tmpdir(), "collect-cert-"));
    const certFile = path.join(dir, "signCert.der");
    const keyFile = path.join(dir, "signPri.key");
    writeFileSync(certFile, Buffer.from(cert.certificate, "base64"));
    writeFileSync(keyFile, Buffer.from(cert.privateKey, "base64"));

    const page = await newPage({ width: 1000 });
    const bodies: string[] = [];
    page.on("request", (request) => {
      const body = request.postData();
      if (body) bodies.push(body);
    });
    const issued = await issueSession({ registrationOptions: [{ kind: "CERTIFICATE" }] });
    await page.goto(partner.url);
    await openWithSdk(page, issued.sessionToken);
    const frame = (await (await page.waitForSelector("iframe[title='기관 계정 연결']"))!.contentFrame())!;
    const certInput = (await frame.waitForSelector("input#f_certificate", { visible: true }))!;
    expect(await frame.$eval("#f_certificate", (el) => (el as HTMLInputElement).type)).toBe("file");
    expect(await frame.$eval("label[for=f_privateKey]", (el) => el.textContent)).toContain("개인키");
    // Where the files usually are, said in each file field's help.
    for (const hint of ["#f_certificate_hint", "#f_privateKey_hint"]) {
      const text = await frame.$eval(hint, (el) => el.textContent ?? "");
      expect(text).toContain("Windows는 C:\\Users\\<이름>\\AppData\\LocalLow\\NPKI");
      expect(text).toContain("macOS는 ~/Library/Preferences/NPKI");
      expect(text).toContain("이동식 디스크(USB)는 그 디스크의 NPKI 폴더");
    }
    // A certificate's password is checked on the file, by no institution's count: no lock is spoken of.
    expect(await frame.$eval("#fields", (el) => el.textContent ?? "")).not.toContain("잠급니다");
    await page.screenshot({ path: path.join(SHOTS, "6-certificate-ui.png") });

    await certInput.uploadFile(certFile);
    await (await frame.$("input#f_privateKey"))!.uploadFile(keyFile);
    await frame.type("#f_password", "wrong-password");
    await frame.click("#submit");
    await frame.waitForFunction(() => document.getElementById("formError")?.textContent?.includes("비밀번호"), { timeout: 60_000, polling: "mutation" });
    await page.screenshot({ path: path.join(SHOTS, "7-certificate-wrong-password.png") });

    await frame.$eval("#f_password", (el) => ((el as HTMLInputElement).value = ""));
    await frame.type("#f_password", cert.password);
    await frame.click("#submit");
    await page.waitForFunction(() => document.getElementById("status")?.textContent?.startsWith("연결되었습니다"), { timeout: 80_000, polling: "mutation" });
    await page.screenshot({ path: path.join(SHOTS, "8-certificate-connected.png") });

    const keyBody = cert.privateKey.slice(40, 100);
    expect(bodies.length).toBeGreaterThanOrEqual(2);
    for (const body of bodies) {
      for (const secret of [cert.password, "wrong-password", keyBody]) expect(body).not.toContain(secret);
    }
    const session = await client(stack(), apiKey).json("GET", `/api/v1/registration-sessions/${issued.sessionId}`);
    expect(session.body).toMatchObject({ status: "CONSUMED", attempts: 1 });
    const credential = await client(stack(), apiKey).json("GET", `/api/v1/credentials/${session.body.credentialId}`);
    expect(credential.body).toMatchObject({
      providerCode: "sandbox.taxportal",
      authMethod: "CERTIFICATE",
      label: expect.stringContaining("(주)예시파트너고객"),
      certificate: { subject: "CN=(주)예시파트너고객,OU=corporation4EC,O=SandboxSign,C=KR", serialNumber: cert.serialNumber, expiresSoon: false },
    });

    // The registered certificate logs in to the sandbox tax portal and collects.
    const api = client(stack(), apiKey);
    const range = { start: "2026-01-01", end: "2026-02-28" };
    const schema = "taxportal.tax-invoices.sales.v1";
    const job = await api.createJob({ providerCode: "sandbox.taxportal", schema, params: { dateRangeStart: range.start, dateRangeEnd: range.end } });
    const truth = documentsOf(DEMO_BUSINESS_NUMBER, schema, range);
    expect(truth.length).toBeGreaterThan(0);
    expect(await api.waitForJob(job.id)).toMatchObject({ kind: "Succeeded", recordCount: truth.length });
    expect((await api.json("GET", `/api/v1/data-jobs/${job.id}/results`)).body.data).toEqual(truth);
    await page.browserContext().close();
  });

  it("registers through a popup, the SDK answering the page's handshake with the token that no URL ever held", async () => {
    const page = await newPage();
    const issued = await issueSession({ registrationOptions: [{ kind: "PROVIDER_LOGIN", providerCode: "sandbox.bank" }] }, popupApiKey);
    await page.goto(partner.url);
    const opened = nextPopup(page);
    await openWithSdk(page, issued.sessionToken, "popup");
    const popup = await opened;
    await popup.waitForSelector("#f_loginId", { visible: true });
    expect(popup.url()).toBe(`${stack().baseUrl}/connect`);
    await popup.type("#f_loginId", "user_good");
    await popup.type("#f_password", PASSWORD);
    await popup.click("#submit");
    await page.waitForFunction((id) => document.getElementById("status")?.textContent === `연결되었습니다 ${id}`, { timeout: 80_000, polling: "mutation" }, issued.sessionId);
    const session = await client(stack(), popupApiKey).json("GET", `/api/v1/registration-sessions/${issued.sessionId}`);
    expect(session.body).toMatchObject({ status: "CONSUMED", credentialId: expect.any(String) });
    await page.browserContext().close();
  });
});

describe("a site off the allowlist that holds a token and claims an allowlisted origin", () => {
  /**
   * What such a site does: opens the real registration page with the partner's origin claimed in the query and the
   * fragment (as older SDKs put it there) and, when it plays the SDK's part, answers the page's hello with the token.
   */
  async function openAsOtherSite(page: Page, sessionToken: string, mode: "iframe" | "popup", answers: boolean): Promise<Frame> {
    await page.goto(otherSite.url);
    const opened = mode === "popup" ? nextPopup(page) : null;
    await page.evaluate(
      (serviceUrl, token, claimed, mode, answers) => {
        const claim = new URLSearchParams({ token, origin: claimed, mode });
        const url = `${serviceUrl}/connect?${claim}#${claim}`;
        let target: Window | null;
        if (mode === "popup") {
          target = window.open(url, "collect-registration", "width=480,height=640");
        } else {
          const frame = document.createElement("iframe");
          frame.title = "기관 계정 연결";
          frame.src = url;
          document.body.append(frame);
          target = frame.contentWindow;
        }
        if (!answers) return;
        window.addEventListener("message", (event) => {
          if (event.source === target && event.data?.type === "collect:hello") target!.postMessage({ type: "collect:token", nonce: event.data.nonce, token }, "*");
        });
      },
      stack().baseUrl,
      sessionToken,
      partner.url,
      mode,
      answers,
    );
    if (opened) return (await opened).mainFrame();
    return (await (await page.waitForSelector("iframe[title='기관 계정 연결']"))!.contentFrame())!;
  }

  it.each([
    ["a popup", "popup", true, "열 수 없습니다"],
    ["an iframe", "iframe", true, "열 수 없습니다"],
    ["an iframe without answering the handshake, on the claim in the URL alone", "iframe", false, "확인하지 못했습니다"],
  ] as const)("gets no form and registers nothing when it opens the page in %s", async (_name, mode, answers, fatalText) => {
    const api = client(stack(), apiKey);
    const credentialsBefore = (await api.json("GET", "/api/v1/credentials")).body.items;
    const issued = await issueSession({ registrationOptions: [{ kind: "PROVIDER_LOGIN", providerCode: "sandbox.bank" }] });
    const page = await newPage();
    const hosted = await openAsOtherSite(page, issued.sessionToken, mode, answers);
    await hosted.waitForSelector("#fatal:not([hidden])", { timeout: 80_000 });
    expect(await hosted.$eval("#fatal", (el) => el.textContent)).toContain(fatalText);
    expect(await hosted.$eval("#form", (el) => (el as HTMLElement).hidden)).toBe(true);
    expect(await hosted.$("#f_password")).toBeNull();
    // The claims are not left in the address bar either.
    expect(hosted.url()).toBe(`${stack().baseUrl}/connect`);
    if (mode === "popup") await hosted.page().screenshot({ path: path.join(SHOTS, "9-other-site-popup.png") });

    const session = await api.json("GET", `/api/v1/registration-sessions/${issued.sessionId}`);
    expect(session.body).toMatchObject({ status: "PENDING", attempts: 0, credentialId: null });
    expect((await api.json("GET", "/api/v1/credentials")).body.items).toEqual(credentialsBefore);
    await page.browserContext().close();
  });
});
