import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { base64UrlDecode, base64UrlEncode } from "../../../../contracts/base64url";
import { configurationProblems } from "../../../../worker/domain/deployment/configuration-problems";
import { signLink } from "../../../../worker/domain/download-links/token";
import { changeSuspension } from "../../../../worker/domain/api-keys/suspension";
import { bankTransaction as tx, call, callJson, createWorkspace, jobInWorkspace, jobWithUnits, onClock, type TestWorkspace } from "../../../support/workers/helpers";
import { servedDocument } from "../../../support/workers/openapi-document";

type Json = Record<string, any>;

const LINK_PREFIX = "https://api.test/api/v1/download-links/";
const THREE_UNITS = [[tx("a", "급여", 10), tx("b", "이체, \"따옴표\"", -5)], [tx("c", null, 1)], [tx("d", "=SUM(A1)", 2)]];

/** A 43-character secret, as `DOWNLOAD_LINK_KEYS` holds them. */
const secret = () => base64UrlEncode(crypto.getRandomValues(new Uint8Array(32)));

async function succeededJob(ws?: TestWorkspace) {
  const owner = ws ?? (await createWorkspace());
  return { ws: owner, jobId: await jobInWorkspace(owner.workspaceId, THREE_UNITS, [0, 1, 2]) };
}

async function makeLink(key: string, jobId: string, json?: unknown, init: Parameters<typeof callJson>[1] = {}) {
  return callJson<Json>(`/api/v1/data-jobs/${jobId}/download-links`, { method: "POST", key, ...(json === undefined ? {} : { json }), ...init });
}

async function linkOf(key: string, jobId: string, json?: unknown): Promise<string> {
  const res = await makeLink(key, jobId, json);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.url;
}

/** Opens a link as a browser would: no API key, only the URL. */
const open = (url: string, init: Parameters<typeof call>[1] = {}) => call(new URL(url).pathname, init);

const bytes = async (response: Response) => new Uint8Array(await response.arrayBuffer());

async function expectRefusal(response: Response, code: string, message?: RegExp) {
  expect(response.status).toBe(401);
  expect(response.headers.get("Content-Type")).toMatch(/^application\/json/);
  const body = await response.json<Json>();
  expect(body).toMatchObject({ code, message: expect.stringMatching(message ?? /[가-힣]/), requestId: response.headers.get("X-Request-Id") });
}

/** The token with its claims rewritten and re-encoded cleanly, its signature kept: what someone aiming a link elsewhere would try. */
function rewritten(url: string, change: (claims: Json) => Json): string {
  const token = url.slice(LINK_PREFIX.length);
  const [keyId, payload, mac] = token.split(".");
  const claims = JSON.parse(new TextDecoder().decode(base64UrlDecode(payload!)!));
  return `${LINK_PREFIX}${keyId}.${base64UrlEncode(new TextEncoder().encode(JSON.stringify(change(claims))))}.${mac}`;
}

describe("CSV download links", () => {
  it("download, without an API key, the same bytes as results.csv, as a file named after the schema and the job", async () => {
    const { ws, jobId } = await succeededJob();
    const before = Date.now();
    const made = await makeLink(ws.apiKey, jobId);
    expect(made.status).toBe(201);
    expect(Object.keys(made.body).sort()).toEqual(["expiresAt", "url"]);
    expect(made.body.url.startsWith(LINK_PREFIX)).toBe(true);
    const expiresAt = Date.parse(made.body.expiresAt);
    expect(made.body.expiresAt).toBe(new Date(expiresAt).toISOString());
    expect(expiresAt).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000 + 3600_000);
    expect(expiresAt).toBeLessThanOrEqual(Date.now() + 3600_000);

    const viaLink = await open(made.body.url);
    expect(viaLink.status).toBe(200);
    expect(viaLink.headers.get("Content-Type")).toBe("text/csv;charset=UTF-8");
    expect(viaLink.headers.get("Content-Disposition")).toBe(`attachment; filename="bank.transactions.cb.v1-${jobId}.csv"`);
    expect(viaLink.headers.get("X-Data-Job-Kind")).toBe("Succeeded");
    expect(viaLink.headers.get("X-Total-Count")).toBe("4");
    expect(viaLink.headers.get("Cache-Control")).toBe("no-store, private");
    const viaKey = await call(`/api/v1/data-jobs/${jobId}/results.csv`, { key: ws.apiKey });
    expect(viaKey.headers.get("Content-Disposition")).toBe(viaLink.headers.get("Content-Disposition"));
    const linkBytes = await bytes(viaLink);
    expect(linkBytes).toEqual(await bytes(viaKey));
    expect(new TextDecoder().decode(linkBytes)).toContain("'=SUM(A1)");
    // A link is reusable until it expires: a BI tool refreshes from the same URL.
    expect(await bytes(await open(made.body.url))).toEqual(linkBytes);
  });

  it("serve a running job's partial CSV and say it is in progress, as results.csv does", async () => {
    const { ws, jobId } = await jobWithUnits(THREE_UNITS, [0, 2]);
    const viaLink = await open(await linkOf(ws.apiKey, jobId));
    const viaKey = await call(`/api/v1/data-jobs/${jobId}/results.csv`, { key: ws.apiKey });
    for (const response of [viaLink, viaKey]) {
      expect(response.status).toBe(200);
      expect(response.headers.get("X-Data-Job-Kind")).toBe("InProgress");
      expect(response.headers.get("X-Total-Count")).toBe("3");
    }
    const text = new TextDecoder().decode(await bytes(viaLink));
    expect(text).toBe(new TextDecoder().decode(await bytes(viaKey)));
    expect(text).toContain("'=SUM(A1)");
    expect(text).not.toMatch(/,c,/);
  });

  it("expire after expiresInSeconds, a minute to seven days, an hour without a body", async () => {
    const { ws, jobId } = await succeededJob();
    for (const seconds of [60, 604_800]) {
      const made = await makeLink(ws.apiKey, jobId, { expiresInSeconds: seconds });
      expect(made.status).toBe(201);
      expect(Math.abs(Date.parse(made.body.expiresAt) - (Date.now() + seconds * 1000))).toBeLessThan(5_000);
    }
    const bare = await call(`/api/v1/data-jobs/${jobId}/download-links`, { method: "POST", key: ws.apiKey });
    expect(bare.status).toBe(201);
    expect(Math.abs(Date.parse((await bare.json<Json>()).expiresAt) - (Date.now() + 3600_000))).toBeLessThan(5_000);
    for (const expiresInSeconds of [59, 604_801, 90.5, "3600", null, -1]) {
      const refused = await makeLink(ws.apiKey, jobId, { expiresInSeconds });
      expect(refused.status, String(expiresInSeconds)).toBe(400);
      expect(refused.body.code).toBe("INVALID_PARAM_FORMAT");
      expect(refused.body.fieldErrors[0]).toMatchObject({ field: "body.expiresInSeconds", code: "INVALID_PARAM_FORMAT", message: expect.stringMatching(/[가-힣]/) });
    }
  });

  it("are made only for the caller's own jobs", async () => {
    const { jobId } = await succeededJob();
    const stranger = await createWorkspace();
    for (const id of [jobId, crypto.randomUUID(), "not-a-job"]) {
      const res = await makeLink(stranger.apiKey, id);
      expect(res.status).toBe(404);
      expect(res.body.code).toBe("DATA_JOB_NOT_FOUND");
    }
    const keyless = await callJson<Json>(`/api/v1/data-jobs/${jobId}/download-links`, { method: "POST" });
    expect(keyless.status).toBe(401);
    expect(keyless.body.code).toBe("INVALID_TOKEN");
  });

  it("refuse a link changed in any way with 401 INVALID_TOKEN and the envelope", async () => {
    const { ws, jobId } = await succeededJob();
    const url = await linkOf(ws.apiKey, jobId);
    const token = url.slice(LINK_PREFIX.length);
    const [keyId, payload, mac] = token.split(".") as [string, string, string];
    const flip = (text: string, at: number) => text.slice(0, at) + (text[at] === "A" ? "B" : "A") + text.slice(at + 1);
    const tampered = [
      `${keyId}.${payload}.${flip(mac, 5)}`,
      `${keyId}.${flip(payload, 10)}.${mac}`,
      rewritten(url, (claims) => ({ ...claims, e: claims.e + 86_400 })).slice(LINK_PREFIX.length),
      rewritten(url, (claims) => ({ ...claims, w: crypto.randomUUID() })).slice(LINK_PREFIX.length),
      `k1.${payload}.${mac}`,
      `nope.${payload}.${mac}`,
      `${keyId}.${payload}`,
      `${keyId}.${payload}.${mac}.${mac}`,
      token.slice(0, -1),
      "garbage",
      encodeURIComponent("..%00;'"),
    ];
    for (const bad of tampered) await expectRefusal(await open(`${LINK_PREFIX}${bad}`), "INVALID_TOKEN", /다운로드 링크가 올바르지 않습니다/);
    expect((await open(url)).status).toBe(200);
  });

  it("open only the job they were made for: one aimed at another job is refused", async () => {
    const ws = await createWorkspace();
    const jobA = await jobInWorkspace(ws.workspaceId, [[tx("only-a", "A", 1)]], [0]);
    const jobB = await jobInWorkspace(ws.workspaceId, [[tx("only-b", "B", 2)]], [0]);
    const linkA = await linkOf(ws.apiKey, jobA);
    const linkB = await linkOf(ws.apiKey, jobB);
    const textOf = async (url: string) => new TextDecoder().decode(await bytes(await open(url)));
    expect(await textOf(linkA)).toContain("only-a");
    expect(await textOf(linkA)).not.toContain("only-b");
    expect(await textOf(linkB)).toContain("only-b");
    // The job is inside the signed token: A's link aimed at B no longer verifies.
    await expectRefusal(await open(rewritten(linkA, (claims) => ({ ...claims, j: jobB }))), "INVALID_TOKEN");
  });

  it("refuse an expired link with 401 TOKEN_EXPIRED, saying when it expired", async () => {
    const { ws, jobId } = await succeededJob();
    const expiredAt = Math.floor(Date.now() / 1000) - 1;
    const token = await signLink(env.DOWNLOAD_LINK_KEYS, { jobId, workspaceId: ws.workspaceId, apiKeyId: ws.apiKeyId, expiresAt: expiredAt });
    await expectRefusal(await open(`${LINK_PREFIX}${token}`), "TOKEN_EXPIRED", new RegExp(new Date(expiredAt * 1000).toISOString().replace(/[.]/g, "\\.")));
    // The same claims a minute later are a working link: only the expiry made the difference.
    const live = await signLink(env.DOWNLOAD_LINK_KEYS, { jobId, workspaceId: ws.workspaceId, apiKeyId: ws.apiKeyId, expiresAt: expiredAt + 61 });
    expect((await open(`${LINK_PREFIX}${live}`)).status).toBe(200);
  });

  it("stop working once the workspace revokes the key that made them, and only those", async () => {
    const { ws, jobId } = await succeededJob();
    const second = await callJson<Json>("/api/v1/api-keys", { method: "POST", key: ws.apiKey, json: { name: "BI 연동" } });
    const bySecond = await linkOf(second.body.secret, jobId);
    const byFirst = await linkOf(ws.apiKey, jobId);
    expect((await open(bySecond)).status).toBe(200);
    expect((await callJson(`/api/v1/api-keys/${second.body.id}`, { method: "DELETE", key: ws.apiKey })).status).toBe(204);
    await expectRefusal(await open(bySecond), "INVALID_TOKEN", /API 키가 폐기/);
    expect((await open(byFirst)).status).toBe(200);
  });

  it("stop working while an operator suspends the workspace whose key made them", async () => {
    const { ws, jobId } = await succeededJob();
    const url = await linkOf(ws.apiKey, jobId);
    await changeSuspension(env, ws.workspaceId, Date.now());
    try {
      await expectRefusal(await open(url), "INVALID_TOKEN", /이용이 정지/);
    } finally {
      await changeSuspension(env, ws.workspaceId, null);
    }
    expect((await open(url)).status).toBe(200);
  });

  it("never outlive the key that made them", async () => {
    const { ws, jobId } = await succeededJob();
    const keyExpiry = new Date(Date.now() + 10 * 60_000).toISOString();
    const shortKey = await callJson<Json>("/api/v1/api-keys", { method: "POST", key: ws.apiKey, json: { name: "10분", expiresAt: keyExpiry } });
    const made = await makeLink(shortKey.body.secret, jobId, { expiresInSeconds: 86_400 });
    expect(made.status).toBe(201);
    expect(made.body.expiresAt).toBe(new Date(Math.floor(Date.parse(keyExpiry) / 1000) * 1000).toISOString());
  });

  it("of a partner's business stop working when the partner's connection to it is revoked", async () => {
    const partner = await createWorkspace({ isPartner: true });
    const businessNumber = "1208800767";
    const connected = await callJson<Json>("/api/v1/connections", { method: "POST", key: partner.apiKey, json: { businessNumber } });
    const row = await env.DB.prepare("SELECT workspace_id FROM connections WHERE id = ?").bind(connected.body.id).first<{ workspace_id: string }>();
    const jobId = await jobInWorkspace(row!.workspace_id, THREE_UNITS, [0, 1, 2]);
    const asPartner = { headers: { "X-SVC-Business": businessNumber } };
    expect((await makeLink(partner.apiKey, jobId, undefined, {})).body.code).toBe("PARTNER_BUSINESS_SELECTOR_REQUIRED");
    const made = await makeLink(partner.apiKey, jobId, undefined, asPartner);
    expect(made.status).toBe(201);
    const viaKey = await call(`/api/v1/data-jobs/${jobId}/results.csv`, { key: partner.apiKey, ...asPartner });
    expect(await bytes(await open(made.body.url))).toEqual(await bytes(viaKey));
    expect((await callJson(`/api/v1/connections/${connected.body.id}`, { method: "DELETE", key: partner.apiKey })).status).toBe(200);
    await expectRefusal(await open(made.body.url), "INVALID_TOKEN", /연결이 해지/);
  });

  it("keep working through a key rotation while their signing key stays in the keyring", async () => {
    const { ws, jobId } = await succeededJob();
    const oldKey = `k1:${secret()}`;
    const newKey = `k2:${secret()}`;
    const withKeys = (keys: string) => ({ ...env, DOWNLOAD_LINK_KEYS: keys });
    const made = await makeLink(ws.apiKey, jobId, undefined, { env: withKeys(oldKey) });
    const oldLink = new URL(made.body.url).pathname;
    expect(oldLink).toMatch(/^\/api\/v1\/download-links\/k1\./);
    // Rotated: the new key signs, the old one still verifies.
    expect((await call(oldLink, { env: withKeys(`${newKey},${oldKey}`) })).status).toBe(200);
    const rotated = await makeLink(ws.apiKey, jobId, undefined, { env: withKeys(`${newKey},${oldKey}`) });
    expect(new URL(rotated.body.url).pathname).toMatch(/^\/api\/v1\/download-links\/k2\./);
    // The old key retired: its links are refused, the new key's still work.
    await expectRefusal(await call(oldLink, { env: withKeys(newKey) }), "INVALID_TOKEN");
    expect((await call(new URL(rotated.body.url).pathname, { env: withKeys(newKey) })).status).toBe(200);
  });

  it("are counted against the caller's address, keyless as they are", async () => {
    const { ws, jobId } = await succeededJob();
    const url = await linkOf(ws.apiKey, jobId);
    const address = { "CF-Connecting-IP": "198.18.200.7" };
    await onClock(0, async () => {
      const statuses = await Promise.all(
        Array.from({ length: 105 }, (_, i) => open(i % 2 ? url : `${LINK_PREFIX}forged`, { headers: address }).then(async (r) => (await r.arrayBuffer(), r.status))),
      );
      expect(statuses.filter((s) => s === 429)).toHaveLength(5);
      const limited = await open(url, { headers: address, key: ws.apiKey });
      expect(limited.status).toBe(429);
      expect((await limited.json<Json>()).code).toBe("API_RATE_LIMITED");
      expect(Number(limited.headers.get("Retry-After"))).toBeGreaterThanOrEqual(1);
      const elsewhere = await open(url, { headers: { "CF-Connecting-IP": "198.18.200.8" } });
      expect(elsewhere.status).toBe(200);
      expect(elsewhere.headers.get("X-RateLimit-Remaining")).toBe("99");
    });
  });

  it("refuse to run on a keyring that cannot sign, naming the problem and never a secret", () => {
    const short = "k1:too-short-to-sign";
    expect(configurationProblems({ ...env, DOWNLOAD_LINK_KEYS: short })).toEqual(["secret DOWNLOAD_LINK_KEYS key k1 is shorter than 32 characters"]);
    expect(configurationProblems({ ...env, DOWNLOAD_LINK_KEYS: secret() })).toEqual([
      "secret DOWNLOAD_LINK_KEYS is not <id>:<secret>[,<id>:<secret>...] with ids of letters, digits, - and _",
    ]);
    expect(configurationProblems({ ...env, DOWNLOAD_LINK_KEYS: `k1:${secret()},k1:${secret()}` })).toEqual(["secret DOWNLOAD_LINK_KEYS names key id k1 twice"]);
    expect(configurationProblems({ ...env, DOWNLOAD_LINK_KEYS: `k2:${secret()}, k1:${secret()}` })).toEqual([]);
  });

  it("are in the OpenAPI document: made with the API key, downloaded without one", async () => {
    const doc = await servedDocument();
    const create = doc.paths["/api/v1/data-jobs/{id}/download-links"]!.post!;
    const download = doc.paths["/api/v1/download-links/{token}"]!.get!;
    expect(create.operationId).toBe("createDownloadLink");
    expect(create.security).toBeUndefined();
    expect(create.requestBody!.required).toBe(false);
    expect(Object.keys(create.responses)).toEqual(expect.arrayContaining(["201", "400", "401", "404", "429"]));
    expect(download.operationId).toBe("downloadJobCsv");
    expect(download.security).toEqual([]);
    expect(Object.keys(download.responses["200"]!.content!)).toEqual(["text/csv;charset=UTF-8", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"]);
    expect(download.responses["401"]!["x-error-codes"]).toEqual(["INVALID_TOKEN", "TOKEN_EXPIRED"]);
    expect(download.parameters!.map((p) => p.name)).toEqual(["token"]);
  });
});
