import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { issueApiKey } from "../../../worker/domain/api-keys/store";
import { insertRequestLogs } from "../../../worker/domain/request-logs/store";
import { alertCode, ConsoleBrowser } from "../../support/workers/console-browser";
import { createWorkspace } from "../../support/workers/helpers";
import { logged, sent } from "../../support/workers/request-log-helpers";

const idOf = async (path: string, key: string) => (await sent(path, { key })).requestId;

describe("the console's Logs page", () => {
  it("lists the workspace's API requests with the API's filters, finds one by id and shows it redacted", async () => {
    const browser = new ConsoleBrowser();
    const { workspaceId } = await browser.signUp();
    const key = await issueApiKey(env.DB, { workspaceId, name: "server", canManageKeys: true });
    const ok = await idOf("/api/v1/providers?accessToken=abc123", key.secret);
    const missing = await idOf(`/api/v1/data-jobs/${crypto.randomUUID()}`, key.secret);
    const elsewhere = await createWorkspace();
    const theirs = await idOf("/api/v1/providers", elsewhere.apiKey);
    await logged(workspaceId, ok, missing);
    await logged(elsewhere.workspaceId, theirs);

    const base = `/console/w/${workspaceId}/logs`;
    const page = await browser.open(base);
    expect(page.status).toBe(200);
    expect(page.html).toContain(`href="${base}"`);
    expect(page.html).toContain(`data-request-id="${ok}"`);
    expect(page.html).toContain(`data-request-id="${missing}"`);
    expect(page.html).not.toContain(`data-request-id="${theirs}"`);

    const failed = await browser.open(`${base}?status=4xx&method=GET&keyId=${key.row.id}&path=/api/v1/data-jobs`);
    expect(failed.status).toBe(200);
    expect(failed.html).toContain(`data-request-id="${missing}"`);
    expect(failed.html).not.toContain(`data-request-id="${ok}"`);
    const later = await browser.open(`${base}?from=2999-01-01T00:00`);
    expect(later.html).not.toContain("data-request-id=");

    const bad = await browser.open(`${base}?status=abc`);
    expect(bad.status).toBe(400);
    expect(alertCode(bad.html)).toBe("INVALID_PARAM_FORMAT");
    const backwards = await browser.open(`${base}?from=2026-11-02T00:00&to=2026-11-01T00:00`);
    expect(backwards.status).toBe(400);
    expect(alertCode(backwards.html)).toBe("DATE_RANGE_INVALID");

    const lookup = await browser.request(`${base}?requestId=${missing}`);
    expect(lookup.status).toBe(303);
    expect(lookup.headers.get("Location")).toBe(`${base}/${missing}`);
    const one = await browser.open(`${base}/${missing}`);
    expect(one.status).toBe(200);
    expect(one.html).toContain(missing);
    expect(/<pre id="error-body">[^<]*DATA_JOB_NOT_FOUND/.test(one.html)).toBe(true);
    const query = await browser.open(`${base}/${ok}`);
    expect(query.html).not.toContain("abc123");
    expect(query.html).toContain("[REDACTED]");

    const notOurs = await browser.open(`${base}/${theirs}`);
    expect(notOurs.status).toBe(404);
    expect(alertCode(notOurs.html)).toBe("RESOURCE_NOT_FOUND");
  });

  it("pages past 50 requests with the API's cursor", async () => {
    const browser = new ConsoleBrowser();
    const { workspaceId } = await browser.signUp();
    const start = Date.now() - 60_000;
    const ids = Array.from({ length: 52 }, (_, i) => `req_page${String(i).padStart(2, "0")}${crypto.randomUUID().replaceAll("-", "").slice(0, 20)}`);
    await insertRequestLogs(
      env.DB,
      ids.map((id, i) => ({ id, workspaceId, apiKeyId: crypto.randomUUID(), apiKeyPrefix: "sk_test000", method: "GET", path: "/api/v1/providers", status: 200, latencyMs: 1, createdAt: start + i })),
    );
    const base = `/console/w/${workspaceId}/logs`;
    const first = await browser.open(`${base}?path=/api/v1/providers`);
    const shown = (html: string) => [...html.matchAll(/data-request-id="([^"]+)"/g)].map((m) => m[1]);
    expect(shown(first.html)).toEqual([...ids].reverse().slice(0, 50));
    const next = /id="next-page" href="([^"]+)"/.exec(first.html)![1]!.replaceAll("&amp;", "&");
    const second = await browser.open(next);
    expect(second.status).toBe(200);
    expect(shown(second.html)).toEqual([ids[1], ids[0]]);
    expect(second.html).not.toContain('id="next-page"');
  });
});
