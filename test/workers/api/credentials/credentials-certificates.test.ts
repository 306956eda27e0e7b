import { env } from "cloudflare:workers";
import { describe, expect, inject, it, vi } from "vitest";
import { CERTIFICATE_CHECK_VERSION, verifyCertificate } from "../../../../worker/domain/certificates/verify";
import { openActiveCredential } from "../../../../worker/domain/credentials/job-credential";
import { base64Decode, base64Encode } from "../../../../contracts/base64url";
import { sealKeyFile } from "../../../../contracts/certificates/key-file";
import { issueJointCertificate, type JointCertificateOptions } from "../../../../sandbox/certificates/issue";
import { NOT_A_MEMBER } from "../../../../sandbox/sandbox-taxportal/members";
import { callJson, createWorkspace } from "../../../support/workers/helpers";
import { act, signedIn } from "../../../support/workers/operator-helpers";
import { encryptForService, hostedUiHeaders } from "../../../support/workers/registration-envelope";

type Json = Record<string, any>;
const BIZNO = "1208800767";
const DAY = 86_400_000;

async function certFields(options: JointCertificateOptions = {}) {
  const { certificate, privateKey, password } = await issueJointCertificate(options);
  return { certificate, privateKey, password };
}

async function createCert(fields: Json, businessNumber: string | null = BIZNO) {
  const ws = await createWorkspace(businessNumber ? { businessNumber } : {});
  const res = await callJson<Json>("/api/v1/credentials", { method: "POST", key: ws.apiKey, json: { providerCode: "sandbox.taxportal", authMethod: "CERTIFICATE", fields } });
  return { ws, res };
}

const bytesOf = (b64: string) => base64Decode(b64)!;
const text = (s: string) => base64Encode(new TextEncoder().encode(s));

/** A key file that really holds an EC key (not RSA), encrypted as CAs encrypt theirs. */
async function ecKeyFile(password: string): Promise<string> {
  const pair = (await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, ["sign", "verify"])) as CryptoKeyPair;
  const pkcs8 = new Uint8Array((await crypto.subtle.exportKey("pkcs8", pair.privateKey)) as ArrayBuffer);
  return base64Encode(await sealKeyFile(pkcs8, password, "SEED_CBC_WITH_SHA1"));
}

/** The certificate's first half: a DER file cut short, as a failed copy leaves it. */
const truncated = (b64: string) => base64Encode(bytesOf(b64).slice(0, Math.floor(bytesOf(b64).byteLength / 2)));

describe("certificate credentials, created directly", () => {
  it("publishes file fields for the certificate provider, sent as standard base64", async () => {
    const ws = await createWorkspace();
    const schema = await callJson<Json>("/api/v1/providers/sandbox.taxportal/credential-schema", { key: ws.apiKey });
    expect(schema.body.acceptedAuthMethods).toEqual(["CERTIFICATE", "PROVIDER_LOGIN"]);
    expect(schema.body.fields.filter((f: Json) => f.authMethod === "CERTIFICATE").map((f: Json) => [f.name, f.input, f.secret])).toEqual([
      ["certificate", "file", false],
      ["privateKey", "file", true],
      ["password", "text", true],
    ]);
    const filePattern = new RegExp(schema.body.fields[0].pattern);
    expect(filePattern.test((await certFields()).certificate)).toBe(true);
    for (const notBase64 of ["QUI", "QU-_", "-----BEGIN CERTIFICATE-----", ""]) expect([notBase64, filePattern.test(notBase64)]).toEqual([notBase64, false]);
  });

  it("seals a valid business certificate, labels it by subject and expiry, and shows its face", async () => {
    const fields = await certFields({ commonName: "(주)테스트상사" });
    const { res } = await createCert(fields);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ providerCode: "sandbox.taxportal", authMethod: "CERTIFICATE", status: "ACTIVE" });
    expect(res.body.label).toMatch(/^인증서 \(주\)테스트상사 \(~\d{4}-\d{2}-\d{2}\)$/);
    expect(res.body.certificate).toEqual({
      subject: "CN=(주)테스트상사,OU=corporation4EC,O=SandboxSign,C=KR",
      issuer: "CN=SandboxSign Class 1,OU=AccreditedCA,O=SandboxSign,C=KR",
      serialNumber: expect.stringMatching(/^[0-9a-f]{32}$/),
      notAfter: expect.any(String),
      expiresSoon: false,
    });
    const row = await env.DB.prepare("SELECT sealed FROM credentials WHERE id = ?").bind(res.body.id).first<{ sealed: string }>();
    for (const secret of [fields.password, fields.privateKey.slice(40, 100)]) {
      expect(row!.sealed).not.toContain(secret);
      expect(JSON.stringify(res.body)).not.toContain(secret);
    }
    expect(await openActiveCredential(env.DB, env.VAULT_MASTER_KEY, res.body.id)).toEqual({ authMethod: "CERTIFICATE", ...fields });
  });

  it("answers 503 CERT_CRYPTO_UNAVAILABLE with Retry-After when the runtime's crypto fails, keeps nothing, files a report operators read and are alerted by, and takes the same files once it works", async () => {
    const fields = await certFields();
    const ws = await createWorkspace({ businessNumber: BIZNO });
    const support = await signedIn("support");
    const create = () => callJson<Json>("/api/v1/credentials", { method: "POST", key: ws.apiKey, json: { providerCode: "sandbox.taxportal", authMethod: "CERTIFICATE", fields } });
    const cryptoReports = async () => ((await act(support.token, "/reports")).body.items as Json[]).filter((r) => r.surprise === "CERT_CRYPTO_UNAVAILABLE");
    expect(await cryptoReports()).toEqual([]);
    // Web Crypto refusing an operation as it does when it cannot carry it out (a DOMException), for this one request.
    const sign = vi.spyOn(crypto.subtle, "sign").mockRejectedValueOnce(new DOMException("crypto unavailable", "OperationError"));
    const refused = await create().finally(() => sign.mockRestore());
    expect(refused.status).toBe(503);
    expect(refused.body).toMatchObject({ code: "CERT_CRYPTO_UNAVAILABLE", message: expect.stringMatching(/[가-힣]/) });
    expect(refused.headers.get("Retry-After")).toBe("30");
    const stored = await env.DB.prepare("SELECT COUNT(*) AS n FROM credentials WHERE workspace_id = ?").bind(ws.workspaceId).first<{ n: number }>();
    expect(stored!.n).toBe(0);
    // Reported as a scraper's unreadable page is, once the answer has gone out: the step, the check's version, the
    // exception, the request; no page, and nothing of the files.
    const [report] = await vi.waitUntil(async () => {
      const found = await cryptoReports();
      return found.length ? found : undefined;
    }, { timeout: 40_000, interval: 100 });
    expect(report).toMatchObject({ providerCode: "-", step: "key pair: sign", adapterVersion: CERTIFICATE_CHECK_VERSION, detail: "OperationError: crypto unavailable", url: null, jobId: null, requestId: refused.body.requestId, occurrences: 1, closedAt: null });
    const read = await act(support.token, `/reports/${report!.id}`);
    expect(read.status).toBe(200);
    expect(JSON.stringify(read.body)).not.toContain(fields.password);
    // Operators hear of it at the first one (worker/domain/alerts/rules.ts): the report counted toward the code's alert.
    const alert = await env.DB.prepare("SELECT example FROM operator_alerts WHERE code = 'CERT_CRYPTO_UNAVAILABLE' AND resolved_at IS NULL").first<{ example: string }>();
    expect(alert).toEqual({ example: `request ${refused.body.requestId}` });
    expect((await create()).status).toBe(201);
  });

  it("reads the key in each encryption in use: seedCBCWithSHA1, PBES2 with SEED-CBC, PBES2 with AES-CBC", async () => {
    for (const encryption of ["SEED_CBC_WITH_SHA1", "PBES2_SEED_CBC", "PBES2_AES256_CBC"] as const) {
      const { res } = await createCert(await certFields({ encryption }));
      expect([encryption, res.status]).toEqual([encryption, 201]);
    }
  });

  it("refuses a certificate, or a tax portal's ID login, in a workspace without a business number to check it against, storing nothing", async () => {
    const { res, ws } = await createCert(await certFields({ idn: "2208162517" }), null);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe("INVALID_BUSINESS_REGISTRATION_NUMBER");
    expect(res.body.message).toContain("사업자등록번호가 없어");
    const login = await callJson<Json>("/api/v1/credentials", { method: "POST", key: ws.apiKey, json: { providerCode: "sandbox.taxportal", authMethod: "PROVIDER_LOGIN", fields: { loginId: "tax_user", password: "pass_good" } } });
    expect(login.body.code).toBe("INVALID_BUSINESS_REGISTRATION_NUMBER");
    const stored = await env.DB.prepare("SELECT COUNT(*) AS n FROM credentials WHERE workspace_id = ?").bind(ws.workspaceId).first<{ n: number }>();
    expect(stored!.n).toBe(0);
  });

  const otherKey = async () => {
    const [a, b] = await Promise.all([certFields(), certFields()]);
    return { ...a, privateKey: b.privateKey, password: b.password };
  };
  const cases: [string, () => Promise<Json>, string][] = [
    ["a certificate file that is not a certificate", async () => ({ ...(await certFields()), certificate: text("not a certificate") }), "CERT_INVALID"],
    ["a certificate file cut short", async () => {
      const f = await certFields();
      return { ...f, certificate: truncated(f.certificate) };
    }, "CERT_INVALID"],
    ["a key file that is not a key file", async () => ({ ...(await certFields()), privateKey: text("not a key file at all") }), "CERT_INVALID"],
    ["a key file holding an EC key, not RSA", async () => {
      const f = await certFields();
      return { ...f, privateKey: await ecKeyFile(f.password) };
    }, "CERT_INVALID"],
    ["a wrong password (seedCBCWithSHA1)", async () => ({ ...(await certFields({ encryption: "SEED_CBC_WITH_SHA1" })), password: "wrong-pass" }), "CERT_WRONG_PASSWORD"],
    ["a wrong password (PBES2, SEED-CBC)", async () => ({ ...(await certFields({ encryption: "PBES2_SEED_CBC" })), password: "wrong-pass" }), "CERT_WRONG_PASSWORD"],
    ["a wrong password (PBES2, AES-CBC)", async () => ({ ...(await certFields({ encryption: "PBES2_AES256_CBC" })), password: "wrong-pass" }), "CERT_WRONG_PASSWORD"],
    ["the key of another certificate", otherKey, "CERT_KEY_PAIR_MISMATCH"],
    ["an expired certificate", () => certFields({ notBefore: new Date(Date.now() - 400 * DAY), notAfter: new Date(Date.now() - DAY) }), "CERT_EXPIRED"],
    ["a certificate not yet valid", () => certFields({ notBefore: new Date(Date.now() + DAY) }), "CERT_EXPIRED"],
    ["an encryption-only certificate (kmCert and kmPri.key)", () => certFields({ usage: "encryption" }), "CERT_KEY_USAGE_INVALID"],
    ["a personal certificate", () => certFields({ holder: "PERSONAL" }), "CERT_TYPE_UNSUPPORTED"],
    ["a key file without R", () => certFields({ withoutRandomNum: true }), "CERT_R_VALUE_NOT_FOUND"],
    ["another business's certificate", () => certFields({ idn: "2208162517" }), "CERT_BIZNO_MISMATCH"],
  ];
  it.each(cases)("rejects %s with 422", async (_name, make, code) => {
    const fields = await make();
    const { ws, res } = await createCert(fields);
    expect(res.status).toBe(422);
    expect(res.body.code).toBe(code);
    expect(res.body.message).toMatch(/[가-힣]/);
    expect(JSON.stringify(res.body)).not.toContain(fields.password);
    expect(await env.DB.prepare("SELECT COUNT(*) AS n FROM credentials WHERE workspace_id = ?").bind(ws.workspaceId).first()).toEqual({ n: 0 });
  });

  it("refuses a file field that is not standard base64 as a format error, before reading it", async () => {
    const fields = await certFields();
    const { res } = await createCert({ ...fields, certificate: "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----" });
    expect(res.status).toBe(400);
    expect(res.body.fieldErrors).toEqual([expect.objectContaining({ field: "body.fields.certificate", code: "INVALID_CREDENTIAL_FORMAT" })]);
  });

  it("refuses a certificate for a provider that takes ID login only, before reading it", async () => {
    const ws = await createWorkspace({ businessNumber: BIZNO });
    const res = await callJson<Json>("/api/v1/credentials", { method: "POST", key: ws.apiKey, json: { providerCode: "sandbox.bank", authMethod: "CERTIFICATE", fields: await certFields() } });
    expect(res.body.code).toBe("PROVIDER_DOES_NOT_ACCEPT_CERT_LOGIN");
  });

  it("checks the key pair by signing, whatever the certificate claims", async () => {
    const fields = await otherKey();
    await expect(verifyCertificate(fields, BIZNO)).rejects.toMatchObject({ code: "CERT_KEY_PAIR_MISMATCH" });
    const good = await certFields();
    await expect(verifyCertificate(good, BIZNO, Date.now() + 400 * DAY)).rejects.toMatchObject({ code: "CERT_EXPIRED" });
    expect((await verifyCertificate(good, BIZNO)).issuer).toBe("CN=SandboxSign Class 1,OU=AccreditedCA,O=SandboxSign,C=KR");
  });

  it("flags in the list the certificates that expire within 30 days, and shows no certificate for an ID login", async () => {
    const ws = await createWorkspace({ businessNumber: BIZNO });
    const post = (providerCode: string, authMethod: string, fields: Json) => callJson<Json>("/api/v1/credentials", { method: "POST", key: ws.apiKey, json: { providerCode, authMethod, fields } });
    expect((await post("sandbox.taxportal", "CERTIFICATE", await certFields({ notAfter: new Date(Date.now() + 10 * DAY) }))).status).toBe(201);
    expect((await post("sandbox.bank", "PROVIDER_LOGIN", { loginId: "user_good", password: "pass_good" })).status).toBe(201);
    const list = await callJson<Json>("/api/v1/credentials", { key: ws.apiKey });
    const byProvider = Object.fromEntries(list.body.items.map((c: Json) => [c.providerCode, c.certificate]));
    expect(byProvider["sandbox.taxportal"]).toMatchObject({ expiresSoon: true, notAfter: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/) });
    expect(Date.parse(byProvider["sandbox.taxportal"].notAfter) - Date.now()).toBeGreaterThan(9 * DAY);
    expect(byProvider["sandbox.bank"]).toBeNull();
  });
});

describe("a joint certificate made by openssl with a CA of its own", () => {
  const outside = inject("opensslJointCertificate");
  const fields = (privateKey: string) => ({ certificate: outside.certificate, privateKey, password: outside.password });

  it.each(Object.keys(outside.privateKeys) as (keyof typeof outside.privateKeys)[])("is read correctly with its key in %s", async (encryption) => {
    const { res } = await createCert(fields(outside.privateKeys[encryption]), outside.businessNumber);
    expect(res.status).toBe(201);
    expect(res.body.certificate).toEqual({ subject: outside.subjectName, issuer: outside.issuerName, serialNumber: outside.serialNumber, notAfter: outside.notAfter, expiresSoon: true });
    expect(res.body.label).toBe(`인증서 ${outside.commonName} (~${outside.notAfter.slice(0, 10)})`);
  });

  it("is another business's certificate for a workspace of another business number", async () => {
    const { res } = await createCert(fields(outside.privateKeys.pbes2SeedCbc), "2208162517");
    expect(res.body.code).toBe("CERT_BIZNO_MISMATCH");
  });

  it("has no R once `openssl pkcs8` has rewritten its key", async () => {
    const { res } = await createCert(fields(outside.privateKeyWithoutR), outside.businessNumber);
    expect(res.body.code).toBe("CERT_R_VALUE_NOT_FOUND");
  });

  it("is refused with its key under PBES2 with triple DES, which no Korean CA uses", async () => {
    const { res } = await createCert(fields(outside.privateKeyTripleDes), outside.businessNumber);
    expect(res.body.code).toBe("CERT_ENCRYPTION_UNSUPPORTED");
  });

  it("is refused as a personal certificate when its CA issued it under a personal policy", async () => {
    const { res } = await createCert({ ...fields(outside.privateKeys.seedCbcWithSha1), certificate: outside.personalCertificate }, outside.businessNumber);
    expect(res.body.code).toBe("CERT_TYPE_UNSUPPORTED");
  });
});

describe("certificate credentials at login, through a real job", () => {
  async function jobWith(fields: Json, businessNumber: string) {
    const { ws, res } = await createCert(fields, businessNumber);
    expect(res.status).toBe(201);
    const created = await callJson<Json>("/api/v1/data-jobs", {
      method: "POST",
      key: ws.apiKey,
      json: { providerCode: "sandbox.taxportal", schema: "taxportal.tax-invoices.sales.v1", params: { dateRangeStart: "2026-03-01", dateRangeEnd: "2026-03-05" } },
    });
    return vi.waitUntil(
      async () => {
        const job = await callJson<Json>(`/api/v1/data-jobs/${created.body.id}`, { key: ws.apiKey });
        return job.body.kind === "InProgress" ? null : job.body;
      },
      { timeout: 180_000, interval: 200 },
    );
  }

  it("fails CERT_NOT_REGISTERED_AT_PROVIDER with a business's valid certificate the portal has no registration for", async () => {
    const done = await jobWith(await certFields({ idn: NOT_A_MEMBER }), NOT_A_MEMBER);
    expect(done).toMatchObject({ kind: "Failed", error: { code: "CERT_NOT_REGISTERED_AT_PROVIDER", category: "USER_ENVIRONMENT", retryable: false } });
  });

  it("fails CERT_INVALID at login with a certificate its CA has revoked, which registration cannot see", async () => {
    const done = await jobWith(await certFields({ revoked: true }), BIZNO);
    expect(done).toMatchObject({ kind: "Failed", error: { code: "CERT_INVALID", category: "CREDENTIAL", retryable: false } });
  });
});

describe("certificate credentials, registered through a session", () => {
  const CERT_SESSION = { registrationOptions: [{ kind: "CERTIFICATE" }], originAllowlist: ["https://partner.example"], clientReferenceId: "cert-user" };

  /** A session issued by a workspace of its own, or by `issuer` (a partner selecting a business). */
  async function certSession(issuer?: { key: string; headers: Record<string, string> }) {
    const ws = await createWorkspace({ businessNumber: BIZNO });
    const issued = await callJson<Json>("/api/v1/registration-sessions", { method: "POST", key: ws.apiKey, ...issuer, json: CERT_SESSION });
    const token = issued.body.sessionToken as string;
    const session = (await callJson<Json>("/connect/api/session", { headers: hostedUiHeaders(token) })).body;
    const submit = async (payload: unknown, body: Json = { kind: "CERTIFICATE", providerCode: "sandbox.taxportal" }) =>
      callJson<Json>("/connect/api/registrations", {
        method: "POST",
        headers: hostedUiHeaders(token),
        json: { ...body, envelope: await encryptForService(session.encryptionKey, session.sessionId, payload) },
      });
    return { ws, sessionId: issued.body.sessionId as string, session, submit };
  }

  it("pins a partner's certificate to the business selected with X-SVC-Business when the session was issued", async () => {
    const partner = await createWorkspace({ isPartner: true });
    expect((await callJson("/api/v1/connections", { method: "POST", key: partner.apiKey, json: { businessNumber: BIZNO } })).status).toBe(201);
    const { submit } = await certSession({ key: partner.apiKey, headers: { "X-SVC-Business": BIZNO } });
    expect((await submit(await certFields({ idn: "2208162517" }))).body.code).toBe("CERT_BIZNO_MISMATCH");
    expect((await submit(await certFields({ idn: BIZNO }))).status).toBe(201);
  });

  it("offers the providers that take certificates, with file fields", async () => {
    const { session } = await certSession();
    const certificateFields = [expect.objectContaining({ name: "certificate", input: "file" }), expect.objectContaining({ name: "privateKey", input: "file" }), expect.objectContaining({ name: "password", input: "text" })];
    expect(session.options).toEqual([
      expect.objectContaining({ kind: "CERTIFICATE", providerCode: "sandbox.taxportal", fields: certificateFields }),
      expect.objectContaining({ kind: "CERTIFICATE", providerCode: "sandbox.card", fields: certificateFields }),
      // The first real institution takes the same certificate.
      expect.objectContaining({ kind: "CERTIFICATE", providerCode: "hometax", fields: certificateFields }),
    ]);
  });

  it("lists a login option and a certificate option side by side", async () => {
    const ws = await createWorkspace({ businessNumber: BIZNO });
    const issued = await callJson<Json>("/api/v1/registration-sessions", {
      method: "POST",
      key: ws.apiKey,
      json: { ...CERT_SESSION, registrationOptions: [{ kind: "PROVIDER_LOGIN", providerCode: "sandbox.bank" }, { kind: "CERTIFICATE" }] },
    });
    const session = await callJson<Json>("/connect/api/session", { headers: hostedUiHeaders(issued.body.sessionToken) });
    expect(session.body.options.map((o: Json) => [o.kind, o.providerCode, o.fields.map((f: Json) => f.input).join()])).toEqual([
      ["PROVIDER_LOGIN", "sandbox.bank", "text,text,text"],
      ["CERTIFICATE", "sandbox.taxportal", "file,file,text"],
      ["CERTIFICATE", "sandbox.card", "file,file,text"],
      ["CERTIFICATE", "hometax", "file,file,text"],
    ]);
  });

  it("registers a valid certificate and consumes the session", async () => {
    const { ws, sessionId, submit } = await certSession();
    const fields = await certFields();
    const done = await submit(fields);
    expect(done.status).toBe(201);
    const polled = await callJson<Json>(`/api/v1/registration-sessions/${sessionId}`, { key: ws.apiKey });
    expect(polled.body.status).toBe("CONSUMED");
    const credential = await callJson<Json>(`/api/v1/credentials/${polled.body.credentialId}`, { key: ws.apiKey });
    expect(credential.body).toMatchObject({ providerCode: "sandbox.taxportal", authMethod: "CERTIFICATE", certificate: { issuer: "CN=SandboxSign Class 1,OU=AccreditedCA,O=SandboxSign,C=KR", expiresSoon: false } });
  });

  it("answers certificate checks with 422 and counts them as attempts", async () => {
    const { ws, sessionId, submit } = await certSession();
    const wrong = await submit({ ...(await certFields()), password: "wrong-pass" });
    expect(wrong.status).toBe(422);
    expect(wrong.body.code).toBe("CERT_WRONG_PASSWORD");
    const foreign = await submit(await certFields({ idn: "2208162517" }));
    expect(foreign.body.code).toBe("CERT_BIZNO_MISMATCH");
    expect((await callJson<Json>(`/api/v1/registration-sessions/${sessionId}`, { key: ws.apiKey })).body).toMatchObject({ status: "PENDING", attempts: 2 });
  });

  it("needs a provider that takes certificates", async () => {
    const { submit } = await certSession();
    const fields = await certFields();
    const none = await submit(fields, { kind: "CERTIFICATE" });
    expect(none.status).toBe(400);
    expect(none.body.code).toBe("PROVIDER_CODE_REQUIRED_FOR_GLOBAL_CERT");
    const bank = await submit(fields, { kind: "CERTIFICATE", providerCode: "sandbox.bank" });
    expect(bank.body.code).toBe("PROVIDER_DOES_NOT_ACCEPT_CERT_LOGIN");
    const login = await submit({ loginId: "user_good", password: "pass_good" }, { kind: "PROVIDER_LOGIN", providerCode: "sandbox.bank" });
    expect(login.status).toBe(403);
    expect(login.body.code).toBe("REGISTRATION_SESSION_OPTION_NOT_ALLOWED");
  });
});
