import type { Browser } from "puppeteer-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type SandboxServer, startSandbox } from "../../sandbox/server";
import { type DocumentType, DOCUMENT_TYPES, documentsOf } from "../../sandbox/taxportal/documents";
import type { AdapterContext, BrowserPage, LoginCredential } from "../../collectors/adapter";
import { sandboxTaxPortal } from "../../collectors/sandbox-taxportal";
import { issueSandboxCertificate } from "../../sandbox/certificates";
import { launchChromium } from "./chromium";

let sandbox: SandboxServer;
let browser: Browser;
let ctx: AdapterContext;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
  browser = await launchChromium();
  ctx = { baseUrl: `${sandbox.url}/taxportal/`, timeoutMs: 10_000 };
});
afterAll(async () => {
  await browser?.close();
  await sandbox?.close();
});

async function loggedIn(credential: LoginCredential): Promise<BrowserPage> {
  const page = (await (await browser.createBrowserContext()).newPage()) as unknown as BrowserPage;
  await sandboxTaxPortal.login(page, credential, ctx);
  return page;
}

const certificate = async (options: Parameters<typeof issueSandboxCertificate>[0] = {}): Promise<LoginCredential> => ({ authMethod: "CERTIFICATE", ...(await issueSandboxCertificate(options)) });

describe("sandbox tax portal adapter in Chromium", () => {
  it.each(Object.keys(DOCUMENT_TYPES) as DocumentType[])("reads %s over a month exactly, across pages", async (schema) => {
    const page = await loggedIn(await certificate({ businessNumber: "1208800767" }));
    const segment = { start: "2026-03-01", end: "2026-03-31" };
    const records = await sandboxTaxPortal.collect(page, { jobId: "t", unitIndex: 0, schema, target: null, segment, params: {} }, ctx);
    const truth = documentsOf("1208800767", schema, segment);
    expect(truth.length).toBeGreaterThan(20);
    expect(records.map((r) => ({ schema, ...r }))).toEqual(truth);
    for (const r of truth) expect(DOCUMENT_TYPES[schema].record.safeParse(r).success).toBe(true);
  });

  it.each([
    ["a wrong certificate password", "LOGIN_FAILED", { password: "cert-pass-1!" }, "other-pass"],
    ["a certificate the portal does not know", "CERT_NOT_REGISTERED_AT_PROVIDER", { commonName: "미등록 사업자" }, undefined],
    ["an expired certificate", "CERT_INVALID", { notBefore: new Date(Date.now() - 400 * 86_400_000), notAfter: new Date(Date.now() - 86_400_000) }, undefined],
  ] as const)("maps %s to %s", async (_name, code, options, password) => {
    const credential = (await certificate(options)) as Extract<LoginCredential, { authMethod: "CERTIFICATE" }>;
    const attempt = loggedIn(password ? { ...credential, password } : credential);
    await expect(attempt).rejects.toMatchObject({ code });
  });
});
