import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { callJson } from "../../support/workers/helpers";
import { alertCode, ConsoleBrowser } from "../../support/workers/console-browser";
import { sha256Hex } from "../../../worker/platform/lib/crypto";

type Json = Record<string, any>;

const LOGIN = { loginId: "hometax_user", password: "pass_good" };

async function mailedLink(to: string, path: string): Promise<string> {
  const mail = await env.DB.prepare("SELECT body FROM mail_outbox WHERE recipient = ? ORDER BY created_at DESC").bind(to).first<{ body: string }>();
  const link = new RegExp(`https?://\\S+${path}\\?token=\\S+`).exec(mail?.body ?? "")?.[0];
  if (!link) throw new Error(`no ${path} link mailed to ${to}`);
  const url = new URL(link);
  return url.pathname + url.search;
}

describe("e-mail verification at sign-up", () => {
  it("mails a one-time link at sign-up; until it is followed the workspace keeps sandbox providers only, and the console says so", async () => {
    const browser = new ConsoleBrowser();
    const { email, workspaceId } = await browser.signUp();
    const link = await mailedLink(email, "/console/verify-email");
    expect((await browser.open(`/console/w/${workspaceId}/credentials`)).html).toContain('id="sandbox-only"');

    const issued = await browser.post(`/console/w/${workspaceId}/keys`, { name: "서버", canManageKeys: "1" });
    const key = /id="issued-secret">([^<]+)</.exec(issued.html)![1]!;
    const register = (providerCode: string) => callJson<Json>("/api/v1/credentials", { method: "POST", key, json: { providerCode, authMethod: "PROVIDER_LOGIN", fields: LOGIN } });
    const refused = await register("hometax");
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe("WORKSPACE_ACCESS_DENIED");
    expect(refused.body.message).toContain("이메일 주소를 확인하기 전에는");
    const credentials = await env.DB.prepare("SELECT COUNT(*) AS n FROM credentials WHERE workspace_id = ?").bind(workspaceId).first<{ n: number }>();
    expect(credentials!.n).toBe(0);
    expect((await register("sandbox.bank")).status).toBe(201);

    // Following the link (a button on its page, so a mail scanner's GET spends nothing) opens real institutions.
    expect((await browser.open(link)).status).toBe(200);
    const token = new URLSearchParams(link.split("?")[1]).get("token")!;
    expect((await browser.post("/console/verify-email", { token })).html).toContain('id="link-done"');
    expect((await register("hometax")).status).toBe(201);
    expect((await browser.open(`/console/w/${workspaceId}/credentials`)).html).not.toContain('id="sandbox-only"');
    // Once.
    await browser.open(link);
    expect(alertCode((await browser.post("/console/verify-email", { token })).html)).toBe("INVALID_TOKEN");
  });
});

describe("mailed account links", () => {
  it("reach the user through the mail binding while the outbox keeps only the token's hash, and the link works", async () => {
    const sent: { to: string; text: string }[] = [];
    const MAIL = { send: async (message: { to: string; text: string }) => void sent.push(message) } as unknown as SendEmail;
    const browser = new ConsoleBrowser();
    browser.bindings = { ...env, MAIL, MAIL_FROM: "no-reply@collect-edge.co.kr", MAIL_OUTBOX_ONLY: undefined } as Env;
    const { email } = await browser.signUp();
    const link = /https?:\/\/\S+\/console\/verify-email\?token=\S+/.exec(sent.find((m) => m.to === email)?.text ?? "")![0];
    const token = new URL(link).searchParams.get("token")!;
    const stored = await env.DB.prepare("SELECT body FROM mail_outbox WHERE recipient = ?").bind(email).all<{ body: string }>();
    expect(stored.results).toHaveLength(1);
    expect(stored.results[0]!.body).not.toContain(token);
    expect(stored.results[0]!.body).toContain(`/console/verify-email?token=sha256:${await sha256Hex(token)}`);
    await browser.open(new URL(link).pathname + new URL(link).search);
    expect((await browser.post("/console/verify-email", { token })).html).toContain('id="link-done"');
  });
});
