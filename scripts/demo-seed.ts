import { createHash, randomBytes } from "node:crypto";
import { allProviders } from "../worker/domain/catalog/providers";
import type { LoginCredential } from "../contracts/task-unit";
import { sealCredential } from "../worker/domain/vault/envelope";
import { type CertificateFace, verifyCertificate } from "../worker/domain/certificates/verify";
import { maskedLabel } from "../worker/domain/credentials/fields";
import { credentialIdentity } from "../worker/domain/credentials/identity";
import { issueJointCertificate } from "../sandbox/certificates/issue";
import { hashPassword } from "../worker/domain/users/password";
import type { OperatorRole } from "../worker/domain/operators/tables";
import { operatorRecord } from "../worker/domain/operators/enrol";

export const DEMO_WORKSPACE_ID = "00000000-0000-4000-8000-00000000d3e0";
export const DEMO_BUSINESS_NUMBER = "1208800767";

/** The demo workspace's console user; a company-looking address, as sign-up requires. */
export const DEMO_USER_EMAIL = "demo@collect-edge.co.kr";

export function newDemoPassword(): string {
  return randomBytes(12).toString("base64url");
}

export function newApiKey(): string {
  return `sk_${randomBytes(32).toString("base64url")}`;
}

const quote = (value: string | number | null) => (value === null ? "NULL" : typeof value === "number" ? String(value) : `'${value.replace(/'/g, "''")}'`);

export interface WorkspaceSeed {
  workspaceId: string;
  name: string;
  apiKey: string;
  /** The ID login stored for every provider whose first way in is an ID login; none when absent. */
  login?: { loginId: string; password: string };
  /** Store a joint certificate from the sandbox CA (of the seeded business number) for every provider whose first way in is a certificate. */
  certificate?: boolean;
  monthlyJobCap?: number | null;
  /** A console user who owns the workspace, with exactly this password. */
  user?: { email: string; password: string };
}

/**
 * SQL that makes a workspace exist with exactly this API key and a credential
 * for every provider, sandbox institutions and the replicas a local stack points real ones at. Re-running it replaces
 * the key and credentials instead of piling them up.
 */
export async function workspaceSeedSql(seed: WorkspaceSeed, vaultMasterKey: string): Promise<string> {
  const now = Date.now();
  const ws = quote(seed.workspaceId);
  const statements = [
    `INSERT OR IGNORE INTO workspaces (id, name, business_number, plan, monthly_job_cap, is_partner, created_at) VALUES (${ws}, ${quote(seed.name)}, ${quote(DEMO_BUSINESS_NUMBER)}, 'PRO', ${quote(seed.monthlyJobCap ?? null)}, 0, ${now});`,
    `DELETE FROM api_keys WHERE workspace_id = ${ws} AND name = 'seeded';`,
    // The seeded key is the workspace's owner key: it may manage the workspace's keys.
    `INSERT INTO api_keys (id, workspace_id, name, prefix, hash, created_at, can_manage_keys) VALUES (${quote(crypto.randomUUID())}, ${ws}, 'seeded', ${quote(seed.apiKey.slice(0, 10))}, ${quote(createHash("sha256").update(seed.apiKey).digest("hex"))}, ${now}, 1);`,
  ];
  if (seed.user) {
    const email = quote(seed.user.email);
    statements.push(
      `INSERT INTO users (id, email, password_hash, created_at) VALUES (${quote(crypto.randomUUID())}, ${email}, ${quote(await hashPassword(seed.user.password))}, ${now}) ON CONFLICT(email) DO UPDATE SET password_hash = excluded.password_hash;`,
      `INSERT OR IGNORE INTO workspace_members (workspace_id, user_id, role, created_at) SELECT ${ws}, id, 'owner', ${now} FROM users WHERE email = ${email};`,
    );
  }
  const credentials: { provider: string; credential: LoginCredential; label: string; certificate: CertificateFace | null }[] = [];
  for (const provider of allProviders()) {
    // A provider's first accepted method the seed has material for: the tax portals' certificate, the bank's and the card issuer's ID login.
    const method = provider.acceptedAuthMethods.find((m) => (m === "PROVIDER_LOGIN" ? seed.login : seed.certificate));
    if (seed.login && method === "PROVIDER_LOGIN") {
      credentials.push({ provider: provider.code, credential: { authMethod: "PROVIDER_LOGIN", ...seed.login }, label: seed.login.loginId, certificate: null });
    } else if (method === "CERTIFICATE") {
      const { certificate, privateKey, password } = await issueJointCertificate({ idn: DEMO_BUSINESS_NUMBER });
      // The same checks, and the same face on the credential, as registration through the API.
      const face = await verifyCertificate({ certificate, privateKey, password }, DEMO_BUSINESS_NUMBER);
      const credential: LoginCredential = { authMethod: "CERTIFICATE", certificate, privateKey, password };
      credentials.push({ provider: provider.code, credential, label: maskedLabel(credential, face), certificate: face });
    }
  }
  for (const { provider, credential, label, certificate } of credentials) {
    const id = crypto.randomUUID();
    const sealed = await sealCredential(vaultMasterKey, { credentialId: id, workspaceId: seed.workspaceId, providerCode: provider }, credential);
    statements.push(
      `UPDATE credentials SET status = 'DELETED', sealed = NULL, deleted_at = ${now} WHERE workspace_id = ${ws} AND provider_code = ${quote(provider)} AND status = 'ACTIVE';`,
      `INSERT INTO credentials (id, workspace_id, provider_code, auth_method, identity, is_default, business_number, status, sealed, label, certificate, created_at) VALUES (${quote(id)}, ${ws}, ${quote(provider)}, ${quote(credential.authMethod)}, ${quote(await credentialIdentity(provider, credential, certificate))}, 1, ${quote(DEMO_BUSINESS_NUMBER)}, 'ACTIVE', ${quote(sealed)}, ${quote(label)}, ${quote(certificate && JSON.stringify(certificate))}, ${now});`,
    );
  }
  return statements.join("\n");
}

/** The local stack's operator (the /admin console and /admin/api), an admin. */
export const DEMO_OPERATOR_EMAIL = "ops@collect-edge.co.kr";

export interface OperatorSeed {
  email: string;
  password: string;
  role: OperatorRole;
  totpSecret?: string;
}

/** SQL that makes an operator exist with exactly this password and TOTP secret; re-running it replaces the account. */
export async function operatorSeedSql(seed: OperatorSeed, vaultMasterKey: string): Promise<{ sql: string; totpSecret: string }> {
  const { row, totpSecret } = await operatorRecord(vaultMasterKey, seed);
  const values = [row.id, row.email, row.passwordHash, row.role, row.totpSealed, row.totpLastStep, row.disabledAt, row.createdAt].map(quote).join(", ");
  return {
    sql: [
      `DELETE FROM operators WHERE email = ${quote(row.email)};`,
      `INSERT INTO operators (id, email, password_hash, role, totp_sealed, totp_last_step, disabled_at, created_at) VALUES (${values});`,
    ].join("\n"),
    totpSecret,
  };
}

export function demoWorkspace(apiKey: string, user?: WorkspaceSeed["user"]): WorkspaceSeed {
  return { workspaceId: DEMO_WORKSPACE_ID, name: "데모 워크스페이스", apiKey, user, login: { loginId: "user_good", password: "pass_good" }, certificate: true };
}
