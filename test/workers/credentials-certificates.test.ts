import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { verifyCertificate } from "../../worker/certificates/verify";
import { openActiveCredential } from "../../worker/credentials/store";
import { issueSandboxCertificate, type SandboxCertificateOptions } from "../../sandbox/certificates";
import { callJson, createWorkspace } from "./helpers";
import { encryptForService, hostedUiHeaders } from "./registration-envelope";

type Json = Record<string, any>;
const BIZNO = "1208800767";
const DAY = 86_400_000;

async function certFields(options: SandboxCertificateOptions = {}) {
  const { certificate, privateKey, password } = await issueSandboxCertificate(options);
  return { certificate, privateKey, password };
}

async function createCert(fields: Json, businessNumber: string | null = BIZNO) {
  const ws = await createWorkspace(businessNumber ? { businessNumber } : {});
  const res = await callJson<Json>("/api/v1/credentials", { method: "POST", key: ws.apiKey, json: { providerCode: "sandbox.taxportal", authMethod: "CERTIFICATE", fields } });
  return { ws, res };
}

describe("certificate credentials, created directly", () => {
  it("publishes file fields for the certificate provider", async () => {
    const ws = await createWorkspace();
    const schema = await callJson<Json>("/api/v1/providers/sandbox.taxportal/credential-schema", { key: ws.apiKey });
    expect(schema.body.acceptedAuthMethods).toEqual(["CERTIFICATE"]);
    expect(schema.body.fields.map((f: Json) => [f.name, f.input, f.secret])).toEqual([
      ["certificate", "file", false],
      ["privateKey", "file", true],
      ["password", "text", true],
    ]);
  });

  it("seals a valid business certificate and labels it by subject and expiry only", async () => {
    const fields = await certFields({ commonName: "(주)테스트상사" });
    const { res } = await createCert(fields);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ providerCode: "sandbox.taxportal", authMethod: "CERTIFICATE", status: "ACTIVE" });
    expect(res.body.label).toMatch(/^인증서 \(주\)테스트상사 \(~\d{4}-\d{2}-\d{2}\)$/);
    const row = await env.DB.prepare("SELECT sealed FROM credentials WHERE id = ?").bind(res.body.id).first<{ sealed: string }>();
    for (const secret of [fields.password, fields.privateKey.split("\n")[1]!]) {
      expect(row!.sealed).not.toContain(secret);
      expect(JSON.stringify(res.body)).not.toContain(secret);
    }
    expect(await openActiveCredential(env.DB, env.VAULT_MASTER_KEY, res.body.id)).toEqual({ authMethod: "CERTIFICATE", ...fields });
  });

  it("accepts a corporate certificate in a workspace without a business number", async () => {
    const { res } = await createCert(await certFields({ certificateType: "CORPORATE", businessNumber: "2208162517" }), null);
    expect(res.status).toBe(201);
  });

  const otherKey = async () => {
    const [a, b] = await Promise.all([certFields(), certFields()]);
    return { ...a, privateKey: b.privateKey, password: b.password };
  };
  const cases: [string, () => Promise<Json>, string][] = [
    ["an unreadable certificate file", async () => ({ ...(await certFields()), certificate: "not a certificate" }), "CERT_INVALID"],
    ["a certificate with a broken body", async () => {
      const f = await certFields();
      return { ...f, certificate: f.certificate.replace(/\n(.)/, "\n!$1") };
    }, "CERT_INVALID"],
    ["an unreadable key file", async () => ({ ...(await certFields()), privateKey: "-----BEGIN SANDBOX ENCRYPTED PRIVATE KEY-----\nAAAA\n-----END SANDBOX ENCRYPTED PRIVATE KEY-----" }), "CERT_INVALID"],
    ["a key encrypted with an unsupported scheme", () => certFields({ kdf: { hash: "SHA-1" } }), "CERT_ENCRYPTION_UNSUPPORTED"],
    ["a wrong password", async () => ({ ...(await certFields()), password: "wrong-pass" }), "CERT_WRONG_PASSWORD"],
    ["the key of another certificate", otherKey, "CERT_KEY_PAIR_MISMATCH"],
    ["an expired certificate", () => certFields({ notBefore: new Date(Date.now() - 400 * DAY), notAfter: new Date(Date.now() - DAY) }), "CERT_EXPIRED"],
    ["a certificate not yet valid", () => certFields({ notBefore: new Date(Date.now() + DAY) }), "CERT_EXPIRED"],
    ["an encryption-only certificate", () => certFields({ keyUsage: ["keyEncipherment", "dataEncipherment"] }), "CERT_KEY_USAGE_INVALID"],
    ["a personal certificate", () => certFields({ certificateType: "PERSONAL", businessNumber: null }), "CERT_TYPE_UNSUPPORTED"],
    ["another business's certificate", () => certFields({ businessNumber: "2208162517" }), "CERT_BIZNO_MISMATCH"],
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
    expect((await verifyCertificate(good, BIZNO)).subject.businessNumber).toBe(BIZNO);
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
    expect((await submit(await certFields({ businessNumber: "2208162517" }))).body.code).toBe("CERT_BIZNO_MISMATCH");
    expect((await submit(await certFields({ businessNumber: BIZNO }))).status).toBe(201);
  });

  it("offers the providers that take certificates, with file fields", async () => {
    const { session } = await certSession();
    expect(session.options).toEqual([
      expect.objectContaining({ kind: "CERTIFICATE", providerCode: "sandbox.taxportal", fields: [expect.objectContaining({ name: "certificate", input: "file" }), expect.objectContaining({ name: "privateKey", input: "file" }), expect.objectContaining({ name: "password", input: "text" })] }),
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
    ]);
  });

  it("registers a valid certificate and consumes the session", async () => {
    const { ws, sessionId, submit } = await certSession();
    const done = await submit(await certFields());
    expect(done.status).toBe(201);
    const polled = await callJson<Json>(`/api/v1/registration-sessions/${sessionId}`, { key: ws.apiKey });
    expect(polled.body.status).toBe("CONSUMED");
    const credential = await callJson<Json>(`/api/v1/credentials/${polled.body.credentialId}`, { key: ws.apiKey });
    expect(credential.body).toMatchObject({ providerCode: "sandbox.taxportal", authMethod: "CERTIFICATE" });
  });

  it("answers certificate checks with 422 and counts them as attempts", async () => {
    const { ws, sessionId, submit } = await certSession();
    const wrong = await submit({ ...(await certFields()), password: "wrong-pass" });
    expect(wrong.status).toBe(422);
    expect(wrong.body.code).toBe("CERT_WRONG_PASSWORD");
    const foreign = await submit(await certFields({ businessNumber: "2208162517" }));
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
