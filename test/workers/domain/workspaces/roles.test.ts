import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { issueApiKey } from "../../../../worker/domain/api-keys/store";
import { addMember } from "../../../../worker/domain/users/members";
import { findUserByEmail } from "../../../../worker/domain/users/store";
import { ACTIONS } from "../../../../worker/domain/workspaces/roles";
import { createSchedule } from "../../../../worker/domain/schedules/manage";
import { alertCode, ConsoleBrowser } from "../../../support/workers/console-browser";
import { addCredential, bankTransaction, call, callJson, createWorkspace, jobInWorkspace } from "../../../support/workers/helpers";

type Json = Record<string, any>;

const SFTP_ROUTE_FORM = { kind: "SFTP", name: "정산 서버", host: "sftp.example.co.kr", username: "collect", hostKeySha256: "A".repeat(43), secret: "sftp-password" };

/** Everything a managing action could change in a workspace (and, for a partner, its connections), row by row. */
async function workspaceState(workspaceId: string): Promise<Json> {
  const state: Json = {};
  for (const table of ["api_keys", "credentials", "delivery_routes", "payment_methods", "registration_sessions", "schedules", "webhook_endpoints", "workspace_invitations", "workspace_members"]) {
    state[table] = (await env.DB.prepare(`SELECT * FROM ${table} WHERE workspace_id = ? ORDER BY rowid`).bind(workspaceId).all()).results;
  }
  state.connections = (await env.DB.prepare("SELECT * FROM connections WHERE partner_workspace_id = ? ORDER BY rowid").bind(workspaceId).all()).results;
  return state;
}

describe("the role table", () => {
  it("lets owners manage and members only run and read jobs, download results and see credentials", () => {
    const byRole = (role: "owner" | "member") => Object.entries(ACTIONS).flatMap(([action, { roles }]) => ((roles as readonly string[]).includes(role) ? [action] : []));
    expect(byRole("member")).toEqual(["jobs.read", "jobs.run", "results.download", "credentials.read", "workspace.leave"]);
    expect(byRole("owner")).toEqual(Object.keys(ACTIONS));
  });
});

describe("roles in the console", () => {
  let owner: ConsoleBrowser;
  let member: ConsoleBrowser;
  let workspaceId: string;
  let jobId: string;
  let memberOwn: string;

  beforeAll(async () => {
    owner = new ConsoleBrowser();
    ({ workspaceId } = await owner.signUp());
    member = new ConsoleBrowser();
    const signedUp = await member.signUp();
    memberOwn = signedUp.workspaceId;
    const email = signedUp.email;
    await addMember(env.DB, { workspaceId, userId: (await findUserByEmail(env.DB, email))!.id, role: "member" });
    jobId = await jobInWorkspace(workspaceId, [[bankTransaction("t1", "급여", 1000)]], [0]);
  });

  /** A schedule of the workspace's (its owner's) for members to try to change. */
  let scheduleId: string | undefined;
  const ownersSchedule = async () => {
    scheduleId ??= (await createSchedule(env, workspaceId, { providerCode: "sandbox.bank", schema: "bank.accounts.cb.v1", cron: "30 4 * * *" })).id;
    return scheduleId!;
  };

  /** A key of the workspace for the revoke row, made afresh so each browser has one to try. */
  const freshKey = async () => (await issueApiKey(env.DB, { workspaceId, name: "폐기 대상" })).row.id;

  type Row = { does: string; page: string; form?: (w: string) => Promise<[string, Record<string, string>]> | [string, Record<string, string>]; owner: number; member: number };
  const rows: Row[] = [
    { does: "lists jobs", page: "/jobs", owner: 200, member: 200 },
    { does: "starts a job", page: "/jobs", form: (w) => [`/console/w/${w}/jobs`, { target: "sandbox.card|card.cards.corp.v1" }], owner: 303, member: 303 },
    { does: "opens a job", page: "/jobs/:job", owner: 200, member: 200 },
    { does: "follows a job's progress", page: "/jobs/:job/status.json", owner: 200, member: 200 },
    { does: "downloads a job's CSV", page: "/jobs/:job/results.csv", owner: 200, member: 200 },
    { does: "lists credentials", page: "/credentials", owner: 200, member: 200 },
    { does: "connects an institution account", page: "/credentials", form: (w) => [`/console/w/${w}/credentials/connect`, {}], owner: 201, member: 403 },
    { does: "sets how long holders' consents last", page: "/credentials", form: (w) => [`/console/w/${w}/credentials/consent-days`, { days: "180" }], owner: 200, member: 403 },
    { does: "lists API keys", page: "/keys", owner: 200, member: 403 },
    { does: "issues an API key", page: "/jobs", form: (w) => [`/console/w/${w}/keys`, { name: "배치 서버" }], owner: 201, member: 403 },
    { does: "revokes an API key", page: "/jobs", form: async (w) => [`/console/w/${w}/keys/${await freshKey()}/revoke`, {}], owner: 200, member: 403 },
    { does: "lists delivery routes", page: "/delivery-routes", owner: 200, member: 403 },
    { does: "lists schedules", page: "/schedules", owner: 200, member: 200 },
    { does: "makes a schedule", page: "/schedules", form: (w) => [`/console/w/${w}/schedules`, { target: "sandbox.card|card.cards.corp.v1", cron: "0 3 * * *" }], owner: 201, member: 403 },
    { does: "pauses a schedule", page: "/schedules", form: async (w) => [`/console/w/${w}/schedules/${await ownersSchedule()}/pause`, {}], owner: 200, member: 403 },
    { does: "adds a delivery route", page: "/jobs", form: (w) => [`/console/w/${w}/delivery-routes`, SFTP_ROUTE_FORM], owner: 201, member: 403 },
    { does: "lists members", page: "/members", owner: 200, member: 403 },
    { does: "opens billing", page: "/billing", owner: 200, member: 403 },
    { does: "lists webhook endpoints", page: "/webhooks", owner: 200, member: 403 },
    { does: "invites someone", page: "/jobs", form: (w) => [`/console/w/${w}/members/invite`, { email: `invited-${crypto.randomUUID()}@example.co.kr`, role: "owner" }], owner: 201, member: 403 },
  ];

  for (const row of rows) {
    it(`${row.does}: owner ${row.owner}, member ${row.member}${row.member === 403 ? " with ADMIN_ACTION_FORBIDDEN on the page, changing nothing" : ""}`, async () => {
      for (const [who, browser, expected] of [["member", member, row.member], ["owner", owner, row.owner]] as const) {
        const path = `/console/w/${workspaceId}${row.page.replace(":job", jobId)}`;
        let before: Json;
        let res: { status: number; html: string };
        if (row.form) {
          // The page the form is on gives the browser its CSRF token.
          await browser.open(path);
          const [action, fields] = await row.form(workspaceId);
          before = await workspaceState(workspaceId);
          res = await browser.post(action, fields);
        } else {
          before = await workspaceState(workspaceId);
          res = await browser.open(path);
        }
        expect(res.status, who).toBe(expected);
        if (expected === 403) {
          expect(alertCode(res.html), who).toBe("ADMIN_ACTION_FORBIDDEN");
          expect(res.html).toContain("소유자(owner)만");
          expect(await workspaceState(workspaceId)).toEqual(before);
        }
      }
    });
  }

  it("shows members no button or link they cannot use, and owners all of them", async () => {
    const memberCredentials = await member.open(`/console/w/${workspaceId}/credentials`);
    expect(memberCredentials.html).not.toContain("/credentials/connect");
    expect(memberCredentials.html).toContain('id="owner-only"');
    const ownerCredentials = await owner.open(`/console/w/${workspaceId}/credentials`);
    expect(ownerCredentials.html).toContain("/credentials/connect");
    for (const page of ["/jobs", `/jobs/${jobId}`, "/credentials"]) {
      expect((await member.open(`/console/w/${workspaceId}${page}`)).html, page).not.toContain(`/console/w/${workspaceId}/keys`);
      expect((await owner.open(`/console/w/${workspaceId}${page}`)).html, page).toContain(`/console/w/${workspaceId}/keys`);
      expect((await member.open(`/console/w/${workspaceId}${page}`)).html, page).not.toContain(`/console/w/${workspaceId}/delivery-routes`);
      expect((await owner.open(`/console/w/${workspaceId}${page}`)).html, page).toContain(`/console/w/${workspaceId}/delivery-routes`);
    }
    // Members see the schedules and their runs, but no form that makes or changes one.
    const schedules = `/console/w/${workspaceId}/schedules`;
    expect((await member.open(schedules)).html).not.toContain(`action="${schedules}`);
    expect((await owner.open(schedules)).html).toContain(`action="${schedules}"`);
    // The refusal page itself offers nothing the member may not use either.
    const refused = await member.open(`/console/w/${workspaceId}/keys`);
    expect(refused.html).not.toContain(`action="/console/w/${workspaceId}/keys`);
    expect(refused.html).not.toContain(`href="/console/w/${workspaceId}/keys"`);
  });

  it("issues data keys in the console, and a managing key only when the owner asks for one, which then manages through the API", async () => {
    await owner.open(`/console/w/${workspaceId}/keys`);
    const data = /id="issued-secret">([^<]+)</.exec((await owner.post(`/console/w/${workspaceId}/keys`, { name: "수집 서버" })).html)![1]!;
    await owner.open(`/console/w/${workspaceId}/keys`);
    const managing = await owner.post(`/console/w/${workspaceId}/keys`, { name: "관리 서버", canManageKeys: "1" });
    expect(managing.html).toContain("(관리 권한)");
    const manager = /id="issued-secret">([^<]+)</.exec(managing.html)![1]!;
    expect((await callJson<Json>("/api/v1/api-keys", { key: data })).body.code).toBe("ADMIN_ACTION_FORBIDDEN");
    const listed = await callJson<Json>("/api/v1/api-keys", { key: manager });
    expect(listed.status).toBe(200);
    expect(listed.body.items.filter((k: Json) => k.canManageKeys).map((k: Json) => k.name)).toEqual(["관리 서버"]);
  });

  it("goes by the role in the workspace at hand: a member here still manages the workspace they own", async () => {
    expect((await member.open(`/console/w/${memberOwn}/keys`)).status).toBe(200);
    expect((await member.open(`/console/w/${workspaceId}/keys`)).status).toBe(403);
  });
});

describe("roles through the API", () => {
  interface Fixture {
    ownerKey: string;
    memberKey: string;
    workspaceId: string;
    spareKeyId: string;
    credentialId: string;
    sessionId: string;
    endpointId: string;
    connectionId: string;
    scheduleId: string;
  }

  /**
   * A workspace with something of every kind to manage, its owner key (the managing right) and a key without it, as
   * the console and the device grant issue; for partner rows, a partner workspace with a connection.
   */
  async function fixture(partner: boolean): Promise<Fixture> {
    const ws = await createWorkspace(partner ? { isPartner: true } : { businessNumber: "1208800767" });
    const memberKey = (await issueApiKey(env.DB, { workspaceId: ws.workspaceId, name: "데이터 전용" })).secret;
    const spareKeyId = (await issueApiKey(env.DB, { workspaceId: ws.workspaceId, name: "예비" })).row.id;
    const post = (path: string, json: unknown) => callJson<Json>(path, { method: "POST", key: ws.apiKey, json });
    const endpoint = await post("/api/v1/webhook-endpoints", { url: "https://hooks.example.co.kr/collect", events: ["data_job.succeeded"] });
    expect(endpoint.status).toBe(201);
    let credentialId = "";
    let sessionId = "";
    let connectionId = "";
    let scheduleId = "";
    if (partner) {
      const connection = await post("/api/v1/connections", { businessNumber: "1208800767" });
      expect(connection.status).toBe(201);
      connectionId = connection.body.id;
    } else {
      credentialId = await addCredential(ws.workspaceId);
      const session = await post("/api/v1/registration-sessions", { registrationOptions: [{ kind: "PROVIDER_LOGIN", providerCode: "sandbox.bank" }], originAllowlist: ["https://partner.example"] });
      expect(session.status).toBe(201);
      sessionId = session.body.sessionId;
      const schedule = await post("/api/v1/schedules", { providerCode: "sandbox.bank", schema: "bank.transactions.cb.v1", cron: "30 4 * * *", lastDays: 1 });
      expect(schedule.status).toBe(201);
      scheduleId = schedule.body.id;
    }
    return { ownerKey: ws.apiKey, memberKey, workspaceId: ws.workspaceId, spareKeyId, credentialId, sessionId, endpointId: endpoint.body.id, connectionId, scheduleId };
  }

  type Request = [method: string, path: string, json?: unknown];
  type Row = { does: string; partner?: boolean; request: (f: Fixture) => Request; withRight: number };
  const endpoint = (f: Fixture) => `/api/v1/webhook-endpoints/${f.endpointId}`;
  const managing: Row[] = [
    { does: "lists the workspace's keys", request: () => ["GET", "/api/v1/api-keys"], withRight: 200 },
    { does: "issues a key", request: () => ["POST", "/api/v1/api-keys", { name: "새 키" }], withRight: 201 },
    { does: "revokes a key", request: (f) => ["DELETE", `/api/v1/api-keys/${f.spareKeyId}`], withRight: 204 },
    { does: "registers a credential directly", request: () => ["POST", "/api/v1/credentials", { providerCode: "sandbox.bank", authMethod: "PROVIDER_LOGIN", fields: { loginId: "user_good", password: "pass_good" } }], withRight: 201 },
    { does: "deletes a credential", request: (f) => ["DELETE", `/api/v1/credentials/${f.credentialId}`], withRight: 204 },
    // Each check is a login at the institution, holding the credential's lease.
    { does: "checks a credential at its institution", request: (f) => ["POST", `/api/v1/credentials/${f.credentialId}/check`, {}], withRight: 202 },
    { does: "makes a holder's manage link for a credential", request: (f) => ["POST", `/api/v1/credentials/${f.credentialId}/manage-links`, {}], withRight: 201 },
    // What the console's 결과 전달 pages show owners only: destinations and what arrived there.
    { does: "lists delivery routes", request: () => ["GET", "/api/v1/delivery-routes"], withRight: 200 },
    // Past the rights check, an unknown route is simply not found.
    { does: "reads a delivery route's log", request: () => ["GET", `/api/v1/delivery-routes/${crypto.randomUUID()}/deliveries`], withRight: 404 },
    { does: "makes a schedule", request: () => ["POST", "/api/v1/schedules", { providerCode: "sandbox.bank", schema: "bank.accounts.cb.v1", cron: "0 3 * * *" }], withRight: 201 },
    { does: "pauses a schedule", request: (f) => ["POST", `/api/v1/schedules/${f.scheduleId}/pause`], withRight: 200 },
    { does: "resumes a schedule", request: (f) => ["POST", `/api/v1/schedules/${f.scheduleId}/resume`], withRight: 200 },
    { does: "deletes a schedule", request: (f) => ["DELETE", `/api/v1/schedules/${f.scheduleId}`], withRight: 204 },
    { does: "issues a registration session", request: () => ["POST", "/api/v1/registration-sessions", { registrationOptions: [{ kind: "PROVIDER_LOGIN", providerCode: "sandbox.bank" }], originAllowlist: ["https://partner.example"] }], withRight: 201 },
    { does: "cancels a registration session", request: (f) => ["POST", `/api/v1/registration-sessions/${f.sessionId}/cancel`], withRight: 200 },
    { does: "creates a webhook endpoint", request: () => ["POST", "/api/v1/webhook-endpoints", { url: "https://attacker.example/steal", events: ["data_job.succeeded"] }], withRight: 201 },
    { does: "changes a webhook endpoint", request: (f) => ["PATCH", endpoint(f), { url: "https://attacker.example/steal" }], withRight: 200 },
    { does: "deletes a webhook endpoint", request: (f) => ["DELETE", endpoint(f)], withRight: 204 },
    { does: "rotates a webhook endpoint's secret", request: (f) => ["POST", `${endpoint(f)}/rotate-secret`], withRight: 201 },
    // Past the rights check, an unknown delivery is simply not found.
    { does: "replays a webhook delivery", request: (f) => ["POST", `${endpoint(f)}/deliveries/${crypto.randomUUID()}/replay`], withRight: 404 },
    { does: "invites someone to the workspace", request: () => ["POST", "/api/v1/workspace/members/invitations", { email: "colleague@example.co.kr", role: "owner" }], withRight: 201 },
    // Past the rights check, someone who is no member is simply not found.
    { does: "removes a member", request: () => ["DELETE", `/api/v1/workspace/members/${crypto.randomUUID()}`], withRight: 404 },
    { does: "registers a payment card", request: () => ["POST", "/api/v1/billing/payment-methods", { card: { number: "4242424242424242", expiryYear: "29", expiryMonth: "12", birthOrBusinessRegistrationNumber: "1208800767", passwordTwoDigits: "00" } }], withRight: 201 },
    { does: "connects a business", partner: true, request: () => ["POST", "/api/v1/connections", { businessNumber: "2208162517" }], withRight: 201 },
    { does: "revokes a business's connection", partner: true, request: (f) => ["DELETE", `/api/v1/connections/${f.connectionId}`], withRight: 200 },
  ];

  /** The status, and the envelope's code when the answer is JSON (a CSV download is not). */
  async function send(key: string, [method, path, json]: Request): Promise<{ status: number; body: Json }> {
    const res = await call(path, { method, key, ...(json === undefined ? {} : { json }) });
    const text = await res.text();
    return { status: res.status, body: res.headers.get("Content-Type")?.includes("json") && text ? JSON.parse(text) : {} };
  }

  for (const row of managing) {
    it(`${row.does}: refused to a key without the managing right with 403 ADMIN_ACTION_FORBIDDEN, changing nothing; done by one with it`, async () => {
      const f = await fixture(row.partner ?? false);
      const before = await workspaceState(f.workspaceId);
      const refused = await send(f.memberKey, row.request(f));
      expect(refused.status).toBe(403);
      expect(refused.body.code).toBe("ADMIN_ACTION_FORBIDDEN");
      expect(refused.body.message).toContain("관리 권한(canManageKeys)");
      expect(await workspaceState(f.workspaceId)).toEqual(before);

      const done = await send(f.ownerKey, row.request(f));
      expect(done.status, JSON.stringify(done.body)).toBe(row.withRight);
    });
  }

  it("lets a key without the managing right run and read jobs, download results and read what it may", async () => {
    const f = await fixture(false);
    const jobId = await jobInWorkspace(f.workspaceId, [[bankTransaction("t1", "급여", 1000)]], [0]);
    const reads: Request[] = [
      ["POST", "/api/v1/data-jobs", { providerCode: "sandbox.card", schema: "card.cards.corp.v1" }],
      ["GET", "/api/v1/data-jobs"],
      ["GET", `/api/v1/data-jobs/${jobId}`],
      ["GET", `/api/v1/data-jobs/${jobId}/results`],
      ["GET", `/api/v1/data-jobs/${jobId}/results.csv`],
      ["POST", `/api/v1/data-jobs/${jobId}/download-links`],
      ["GET", "/api/v1/credentials"],
      ["GET", `/api/v1/credentials/${f.credentialId}`],
      ["GET", `/api/v1/registration-sessions/${f.sessionId}`],
      ["GET", "/api/v1/webhook-endpoints"],
      ["GET", endpoint(f)],
      ["GET", `${endpoint(f)}/deliveries`],
      ["GET", "/api/v1/connections"],
      ["GET", "/api/v1/schedules"],
      ["GET", `/api/v1/schedules/${f.scheduleId}`],
      ["GET", `/api/v1/schedules/${f.scheduleId}/runs`],
    ];
    for (const request of reads) {
      const res = await send(f.memberKey, request);
      // GET /connections answers a non-partner 400; what matters is that no role stands in the way.
      expect(res.status, request.slice(0, 2).join(" ")).toBeLessThan(request[1] === "/api/v1/connections" ? 500 : 300);
      expect(res.body.code).not.toBe("ADMIN_ACTION_FORBIDDEN");
    }
  });
});
