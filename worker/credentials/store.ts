import { and, desc, eq, inArray } from "drizzle-orm";
import { database } from "../db/client";
import { credentials, jobs } from "../db/tables";
import { ApiError } from "../errors/api-error";
import type { LoginCredential } from "../../collectors/adapter";
import { sealCredential } from "../vault/envelope";
import { maskedLabel } from "./fields";

export type CredentialRow = typeof credentials.$inferSelect;

/** A new credential row, its secret sealed under a data key of its own. */
export async function sealedCredentialRow(masterKey: string, workspaceId: string, providerCode: string, credential: LoginCredential): Promise<CredentialRow> {
  const id = crypto.randomUUID();
  return {
    id,
    workspaceId,
    providerCode,
    authMethod: credential.authMethod,
    status: "ACTIVE",
    sealed: await sealCredential(masterKey, id, credential),
    label: maskedLabel(credential),
    createdAt: Date.now(),
    deletedAt: null,
  };
}

/** The one-live-credential-per-provider index refused the insert (drizzle wraps the D1 error as `cause`). */
export function isDuplicateProvider(err: unknown): boolean {
  return /UNIQUE constraint failed/i.test(`${String(err)} ${String((err as { cause?: unknown })?.cause ?? "")}`);
}

export async function createCredential(d1: D1Database, masterKey: string, workspaceId: string, providerCode: string, credential: LoginCredential): Promise<CredentialRow> {
  const row = await sealedCredentialRow(masterKey, workspaceId, providerCode, credential);
  try {
    await database(d1).insert(credentials).values(row);
  } catch (err) {
    if (isDuplicateProvider(err)) throw new ApiError("CREDENTIAL_PROVIDER_DUPLICATED");
    throw err;
  }
  return row;
}

export function listCredentials(d1: D1Database, workspaceId: string): Promise<CredentialRow[]> {
  return database(d1).select().from(credentials).where(eq(credentials.workspaceId, workspaceId)).orderBy(desc(credentials.createdAt)).all();
}

/** A workspace's live credential for a provider, which its jobs use implicitly. */
export async function findActiveCredential(d1: D1Database, workspaceId: string, providerCode: string): Promise<CredentialRow | null> {
  const row = await database(d1)
    .select()
    .from(credentials)
    .where(and(eq(credentials.workspaceId, workspaceId), eq(credentials.providerCode, providerCode), eq(credentials.status, "ACTIVE")))
    .get();
  return row ?? null;
}

export async function findCredential(d1: D1Database, workspaceId: string, id: string): Promise<CredentialRow> {
  const row = await database(d1).select().from(credentials).where(and(eq(credentials.id, id), eq(credentials.workspaceId, workspaceId))).get();
  if (!row || row.status === "DELETED") throw new ApiError("CREDENTIAL_NOT_FOUND");
  return row;
}

/** Deletes unless a job still runs on it; later jobs of the workspace then fail CREDENTIAL_NOT_FOUND. */
export async function deleteCredential(d1: D1Database, workspaceId: string, id: string): Promise<void> {
  await findCredential(d1, workspaceId, id);
  const busy = await database(d1)
    .select({ id: jobs.id })
    .from(jobs)
    .where(and(eq(jobs.credentialId, id), inArray(jobs.status, ["PENDING", "RUNNING"])))
    .limit(1)
    .get();
  if (busy) throw new ApiError("CREDENTIAL_HAS_ACTIVE_CONNECTIONS", { message: "이 자격 증명으로 진행 중인 작업이 있습니다. 작업이 끝난 뒤 삭제해 주세요." });
  await database(d1).update(credentials).set({ status: "DELETED", deletedAt: Date.now() }).where(and(eq(credentials.id, id), eq(credentials.status, "ACTIVE")));
}
