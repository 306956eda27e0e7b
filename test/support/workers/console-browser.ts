import { env, exports } from "cloudflare:workers";
import { createApp } from "../../../worker/app";

/**
 * A browser as far as the console cares: a cookie jar, a fixed client
 * address and origin, forms posted with the CSRF token of the page last
 * shown. It drives the worker's real fetch handler.
 */
export class ConsoleBrowser {
  readonly cookies = new Map<string, string>();
  /** Set-Cookie lines of the last response, to inspect flags. */
  lastSetCookies: string[] = [];
  lastHtml = "";
  /** When set, the same app runs on these bindings instead of the runtime's (one of them replaced, e.g. a mail binding that records). */
  bindings: Env | undefined;

  constructor(
    readonly address: string = `10.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`,
    readonly origin: string = "https://console.test",
  ) {}

  async request(path: string, init: RequestInit & { form?: Record<string, string> } = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    headers.set("CF-Connecting-IP", this.address);
    if (this.cookies.size) headers.set("Cookie", [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; "));
    let body = init.body;
    if (init.form) {
      body = new URLSearchParams(init.form);
      headers.set("Content-Type", "application/x-www-form-urlencoded");
      if (!headers.has("Origin")) headers.set("Origin", this.origin);
    }
    const request = new Request(`${this.origin}${path}`, { ...init, headers, body, redirect: "manual" });
    const response = await (this.bindings ? createApp().fetch(request, this.bindings) : exports.default.fetch(request));
    this.lastSetCookies = response.headers.getAll("Set-Cookie");
    for (const line of this.lastSetCookies) {
      const [pair] = line.split(";");
      const name = pair!.slice(0, pair!.indexOf("="));
      const value = pair!.slice(pair!.indexOf("=") + 1);
      if (/Max-Age=0/i.test(line) || value === "") this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return response;
  }

  async open(path: string): Promise<{ status: number; html: string; response: Response }> {
    const response = await this.request(path);
    const html = await response.text();
    if (response.headers.get("Content-Type")?.includes("html")) this.lastHtml = html;
    return { status: response.status, html, response };
  }

  /** The CSRF token of the page last shown. */
  csrf(): string {
    return /name="_csrf" value="([^"]+)"/.exec(this.lastHtml)?.[1] ?? "";
  }

  /** Posts a form with the last page's token (unless the form sets its own `_csrf`). */
  async post(path: string, form: Record<string, string>, headers: Record<string, string> = {}) {
    const response = await this.request(path, { method: "POST", form: { _csrf: this.csrf(), ...form }, headers });
    const html = await response.text();
    if (response.headers.get("Content-Type")?.includes("html")) this.lastHtml = html;
    return { status: response.status, html, location: response.headers.get("Location"), response };
  }

  /** Signs up with a fresh company address; lands on the new workspace's keys page. */
  async signUp(email = `user-${crypto.randomUUID()}@example.co.kr`, password = "correct horse battery"): Promise<{ email: string; password: string; workspaceId: string }> {
    await this.open("/console/sign-up");
    const res = await this.post("/console/sign-up", { email, password, workspaceName: "테스트 회사", businessNumber: "120-88-00767" });
    if (res.status !== 303) throw new Error(`sign-up failed: ${res.status} ${res.html.slice(0, 300)}`);
    const workspaceId = /\/console\/w\/([0-9a-f-]+)\//.exec(res.location ?? "")![1]!;
    await this.open(res.location!);
    return { email, password, workspaceId };
  }

  /** Follows the verification link sign-up mailed to `email` (the outbox keeps it), pressing its button as the owner would. */
  async verifyEmail(email: string): Promise<void> {
    const db = (this.bindings ?? (env as Env)).DB;
    const mail = await db.prepare("SELECT body FROM mail_outbox WHERE recipient = ? ORDER BY created_at DESC").bind(email).first<{ body: string }>();
    const link = /https?:\/\/\S+\/console\/verify-email\?token=\S+/.exec(mail?.body ?? "")?.[0];
    if (!link) throw new Error(`no verification link mailed to ${email}`);
    const url = new URL(link);
    await this.open(url.pathname + url.search);
    const done = await this.post("/console/verify-email", { token: url.searchParams.get("token")! });
    if (!done.html.includes('id="link-done"')) throw new Error(`verification failed: ${done.status} ${done.html.slice(0, 300)}`);
  }

  async signIn(email: string, password: string) {
    await this.open("/console/sign-in");
    return this.post("/console/sign-in", { email, password });
  }
}

/** The catalog code a console page announces in its alert, if any. */
export const alertCode = (html: string): string | null => /data-code="([A-Z_]+)"/.exec(html)?.[1] ?? null;
