import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { jobError } from "../../../../contracts/job-failures";
import { SIMPLE_AUTH_PEOPLE } from "../../../../sandbox/hometax/simple-auth-people";
import { callJson, createWorkspace, type TestWorkspace } from "../../../support/workers/helpers";
import { encryptForService, hostedUiHeaders } from "../../../support/workers/registration-envelope";

type Json = Record<string, any>;
const BANK = { kind: "PROVIDER_LOGIN", providerCode: "sandbox.bank" };
// This project registers without checks (vitest.config.ts); the hosted page's check is what these tests are about.
const CHECKED = { ...(env as Env), CREDENTIAL_CHECKS: "on" } as Env;
const PHONE = `${env.SANDBOX_BASE_URL}/_sandbox/hometax/phone`;

async function issue(ws: TestWorkspace, option: Json = BANK) {
  const res = await callJson<Json>("/api/v1/registration-sessions", { method: "POST", key: ws.apiKey, json: { registrationOptions: [option], originAllowlist: ["https://partner.example"] } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { sessionId: string; sessionToken: string };
}

/** What the hosted page sends: the fields encrypted to the service, under the option and method the person chose. */
async function submit(token: string, fields: Json, body: Json = { kind: "PROVIDER_LOGIN", providerCode: "sandbox.bank" }) {
  const session = (await callJson<Json>("/connect/api/session", { headers: hostedUiHeaders(token) })).body;
  const envelope = await encryptForService(session.encryptionKey, session.sessionId, fields);
  return callJson<Json>("/connect/api/registrations", { method: "POST", headers: hostedUiHeaders(token), json: { ...body, envelope }, env: CHECKED });
}

const check = (token: string) => callJson<Json>("/connect/api/registrations/check", { method: "POST", headers: hostedUiHeaders(token), env: CHECKED });
const credentialsOf = (ws: TestWorkspace) =>
  env.DB.prepare("SELECT id, status, is_default AS isDefault, superseded_by AS supersededBy, check_state AS checkState, sealed IS NOT NULL AS sealed FROM credentials WHERE workspace_id = ? ORDER BY created_at").bind(ws.workspaceId).all<Json>().then((r) => r.results);
const sessionRow = (id: string) => env.DB.prepare("SELECT status, attempts, pending_login AS pending FROM registration_sessions WHERE id = ?").bind(id).first<Json>();

describe("a login registered in the hosted page is checked at the institution before it is stored", () => {
  it("stores a login the bank lets in, already VALID, and says connected only then", async () => {
    const ws = await createWorkspace({ businessNumber: "1208800767" });
    const session = await issue(ws);
    const done = await submit(session.sessionToken, { loginId: "user_good", password: "pass_good" });
    expect([done.status, done.body]).toEqual([201, { sessionId: session.sessionId, state: "CONNECTED", status: "CONSUMED" }]);
    const [stored] = await credentialsOf(ws);
    expect(stored).toMatchObject({ status: "ACTIVE", isDefault: 1, checkState: "VALID" });
    expect(await sessionRow(session.sessionId)).toMatchObject({ status: "CONSUMED", pending: null });
  });

  it("tells the institution's lock rule where a source gives one, before the first try and with each refusal's count, and nothing where none does", async () => {
    const ws = await createWorkspace({ businessNumber: "1208800767" });
    const session = await issue(ws, { kind: "PROVIDER_LOGIN", providerCode: "sandbox.bank" });
    const options = async (option: Json) => {
      const { sessionToken } = await issue(ws, option);
      return ((await callJson<Json>("/connect/api/session", { headers: hostedUiHeaders(sessionToken) })).body.options as Json[]).map((o) => [o.kind, o.providerCode, o.lockAfterWrongPasswords]);
    };
    // The bank's and Hometax's ID logins lock after five (sandbox/bank/behaviours.ts, docs/institutions/hometax.md); the
    // tax portal replica's says nothing of a lock, and a certificate's password is checked on the file, not by a count.
    expect(await options({ kind: "PROVIDER_LOGIN", providerCode: "sandbox.bank" })).toEqual([["PROVIDER_LOGIN", "sandbox.bank", 5]]);
    expect(await options({ kind: "PROVIDER_LOGIN", providerCode: "hometax" })).toEqual([["PROVIDER_LOGIN", "hometax", 5]]);
    expect(await options({ kind: "PROVIDER_LOGIN", providerCode: "sandbox.taxportal" })).toEqual([["PROVIDER_LOGIN", "sandbox.taxportal", null]]);
    expect((await options({ kind: "CERTIFICATE" })).every(([, , lock]) => lock === null)).toBe(true);

    const lock = (failed: number) => `비밀번호를 5회 틀리면 기관이 로그인을 잠급니다(이 화면에서 실패한 시도: ${failed}회).`;
    const first = await submit(session.sessionToken, { loginId: "user_good", password: "wrong_password" });
    expect([first.status, first.body.message]).toEqual([422, `${jobError("LOGIN_FAILED").message} ${lock(1)} 남은 시도: 4회.`]);
    const second = await submit(session.sessionToken, { loginId: "user_good", password: "wrong_again" });
    expect([second.status, second.body.message]).toEqual([422, `${jobError("LOGIN_FAILED").message} ${lock(2)} 남은 시도: 3회.`]);
  });

  it("shows a wrong password's refusal in place, with the catalog's reason and the attempts left, and supersedes nothing", async () => {
    const ws = await createWorkspace({ businessNumber: "1208800767" });
    const first = await issue(ws);
    expect((await submit(first.sessionToken, { loginId: "user_good", password: "pass_good" })).status).toBe(201);
    const [working] = await credentialsOf(ws);

    const again = await issue(ws);
    const refused = await submit(again.sessionToken, { loginId: "user_good", password: "wrong_password" });
    expect(refused.status, JSON.stringify(refused.body)).toBe(422);
    expect(refused.body).toMatchObject({ code: "CREDENTIAL_PROBE_FAILED", requestId: expect.any(String) });
    expect(refused.body.message).toBe(`${jobError("LOGIN_FAILED").message} 비밀번호를 5회 틀리면 기관이 로그인을 잠급니다(이 화면에서 실패한 시도: 1회). 남은 시도: 4회.`);
    // The working default is untouched: still ACTIVE, the default, with its secret; no new row.
    expect(await credentialsOf(ws)).toEqual([{ ...working, status: "ACTIVE", isDefault: 1, supersededBy: null, sealed: 1 }]);
    // One attempt spent, not two, and nothing held for the session any more.
    expect(await sessionRow(again.sessionId)).toMatchObject({ status: "PENDING", attempts: 1, pending: null });
    // The default credential still runs jobs.
    const job = await callJson<Json>("/api/v1/data-jobs", { method: "POST", key: ws.apiKey, json: { providerCode: "sandbox.bank", schema: "bank.transactions.cb.v1", params: { dateRangeStart: "2026-01-01", dateRangeEnd: "2026-01-31" } } });
    expect(job.status, JSON.stringify(job.body)).toBe(201);
    expect(job.body.credentialId).toBe(working!.id);

    // The person corrects it in the same session: then it supersedes the old row, as a re-registration does.
    const corrected = await submit(again.sessionToken, { loginId: "user_good", password: "pass_good" });
    expect(corrected.body.state).toBe("CONNECTED");
    const rows = await credentialsOf(ws);
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatchObject({ id: working!.id, status: "SUPERSEDED" });
    expect(rows[1]).toMatchObject({ status: "ACTIVE", isDefault: 1, checkState: "VALID" });
  });

  it("answers a check with nothing submitted as not usable, and the direct API refuses a 간편인증 login, pointing to the hosted page", async () => {
    const ws = await createWorkspace({ businessNumber: SIMPLE_AUTH_PEOPLE[3]!.businessNumber });
    const session = await issue(ws);
    const nothing = await check(session.sessionToken);
    expect([nothing.status, nothing.body.code]).toEqual([410, "REGISTRATION_SESSION_NOT_USABLE"]);
    const person = SIMPLE_AUTH_PEOPLE[3]!;
    const direct = await callJson<Json>("/api/v1/credentials", { method: "POST", key: ws.apiKey, json: { providerCode: "hometax", authMethod: "SIMPLE_AUTH", fields: { provider: "kakao", name: person.name, birthDate: person.birthDate, phone: person.phone } } });
    expect([direct.status, direct.body.code]).toEqual([400, "UNSUPPORTED_AUTH_METHOD"]);
    expect(direct.body.message).toContain("registration-sessions");
    expect(await credentialsOf(ws)).toEqual([]);
  });
});

describe("a 간편인증 login registered in the hosted page", () => {
  it("waits for the holder's phone, stores nothing until they approve, then is stored and its login kept for the first job", async () => {
    const person = SIMPLE_AUTH_PEOPLE[3]!;
    const ws = await createWorkspace({ businessNumber: person.businessNumber });
    const session = await issue(ws, { kind: "PROVIDER_LOGIN", providerCode: "hometax" });
    const offered = (await callJson<Json>("/connect/api/session", { headers: hostedUiHeaders(session.sessionToken) })).body.options[0];
    expect(offered.methods.map((m: Json) => [m.authMethod, m.name])).toEqual([["PROVIDER_LOGIN", "아이디 로그인"], ["SIMPLE_AUTH", "간편인증"]]);
    expect(offered.methods[1].fields.find((f: Json) => f.name === "provider")).toMatchObject({ input: "select", options: expect.arrayContaining([{ value: "kakao", label: expect.any(String) }]) });
    const fields = { provider: "kakao", name: person.name, birthDate: person.birthDate, phone: person.phone };
    const waiting = await submit(session.sessionToken, fields, { kind: "PROVIDER_LOGIN", providerCode: "hometax", authMethod: "SIMPLE_AUTH" });
    expect(waiting.status, JSON.stringify(waiting.body)).toBe(202);
    expect(waiting.body).toMatchObject({ state: "AWAITING_HOLDER", status: "PENDING", awaiting: { method: "SIMPLE_AUTH", provider: "kakao", until: expect.any(String) } });
    expect(Date.parse(waiting.body.awaiting.until)).toBeGreaterThan(Date.now());
    expect(await credentialsOf(ws)).toEqual([]);

    const tapped = await fetch(`${PHONE}/approve`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ name: person.name }) });
    expect(((await tapped.json()) as Json).answered).toBe(1);
    let answer = await check(session.sessionToken);
    // The scraper may have asked the phone just before the approval: the page asks again.
    for (let i = 0; i < 3 && answer.status === 202; i++) answer = await check(session.sessionToken);
    expect([answer.status, answer.body.state], JSON.stringify(answer.body)).toEqual([201, "CONNECTED"]);
    const [stored] = await credentialsOf(ws);
    expect(stored).toMatchObject({ status: "ACTIVE", checkState: "VALID", sealed: 1 });
    expect(await sessionRow(session.sessionId)).toMatchObject({ status: "CONSUMED", pending: null });
  });

  it("counts a login given up for a resubmission as an attempt, so one session cannot ring the holder's phone past its five", async () => {
    const person = SIMPLE_AUTH_PEOPLE[4]!;
    const ws = await createWorkspace({ businessNumber: person.businessNumber });
    const session = await issue(ws, { kind: "PROVIDER_LOGIN", providerCode: "hometax" });
    const fields = { provider: "kakao", name: person.name, birthDate: person.birthDate, phone: person.phone };
    const answers: [number, string][] = [];
    for (let i = 0; i < 6; i++) {
      const res = await submit(session.sessionToken, fields, { kind: "PROVIDER_LOGIN", providerCode: "hometax", authMethod: "SIMPLE_AUTH" });
      answers.push([res.status, res.body.state ?? res.body.code]);
    }
    // Each submission asked the phone; the ones replaced were never answered, and each of those spent an attempt.
    expect(answers).toEqual([...Array(5).fill([202, "AWAITING_HOLDER"]), [410, "REGISTRATION_SESSION_MAX_ATTEMPTS_EXCEEDED"]]);
    expect(await sessionRow(session.sessionId)).toMatchObject({ status: "LOCKED", attempts: 5, pending: null });
    await fetch(`${PHONE}/deny`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ name: person.name }) });
  });

  it("asks one person's phone at most five times an hour however many sessions and workspaces name them, answering 429 without asking", async () => {
    const person = SIMPLE_AUTH_PEOPLE[5]!;
    const fields = { provider: "kakao", name: person.name, birthDate: person.birthDate, phone: person.phone };
    const method = { kind: "PROVIDER_LOGIN", providerCode: "hometax", authMethod: "SIMPLE_AUTH" };
    const answers: [number, string][] = [];
    let last: Json = {};
    for (let i = 0; i < 6; i++) {
      // A session of another workspace each time: no session spends an attempt, and no one workspace asks twice.
      const ws = await createWorkspace({ businessNumber: person.businessNumber });
      const session = await issue(ws, { kind: "PROVIDER_LOGIN", providerCode: "hometax" });
      last = await submit(session.sessionToken, fields, method);
      answers.push([last.status, last.body.state ?? last.body.code]);
      if (i === 5) expect(await sessionRow(session.sessionId)).toMatchObject({ status: "PENDING", attempts: 0, pending: null });
    }
    expect(answers).toEqual([...Array(5).fill([202, "AWAITING_HOLDER"]), [429, "API_RATE_LIMITED"]]);
    expect(Number(last.headers.get("Retry-After"))).toBeGreaterThan(0);
    await fetch(`${PHONE}/deny`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ name: person.name }) });
  });
});
