import { findProvider } from "../catalog/providers";
import { findSchema } from "../catalog/schemas";
import { ApiError } from "../errors/api-error";
import { createJob } from "../jobs/create";
import { GLOBAL_PROVIDER } from "./identity";
import type { JobsEnv } from "../jobs/lifecycle";
import { alreadyExists, assertIdentitiesKnown, findCredential, type CredentialRow, eraseSupersededSecret, isIdentityConflict, replaceCredentialStatements, supersededIds } from "./store";

const KST_OFFSET_MS = 9 * 3_600_000;
const DAY_MS = 86_400_000;

/** The smallest job of a provider on one credential: a schema without a period if it has one, else one day (yesterday, KST). */
function credentialCheckJob(providerCode: string, credentialId: string, now: number) {
  const schemas = findProvider(providerCode)!.schemas.map((id) => findSchema(id)!);
  const undated = schemas.find((s) => !s.datedRange);
  if (undated) return { providerCode, credentialId, schema: undated.id, params: {} };
  const yesterday = new Date(now + KST_OFFSET_MS - DAY_MS).toISOString().slice(0, 10);
  return { providerCode, credentialId, schema: schemas[0]!.id, params: { dateRangeStart: yesterday, dateRangeEnd: yesterday } };
}

/**
 * The spec's credential check after a change: one small job on the new
 * credential, whose error category tells whether it logs in. The
 * registration itself succeeded either way, so a job the plan refuses
 * is only logged.
 */
async function runCredentialCheck(env: JobsEnv, row: CredentialRow): Promise<void> {
  // A global certificate names no provider to try it at: its owner checks it with a job naming its credentialId.
  if (row.providerCode === GLOBAL_PROVIDER) return;
  try {
    await createJob(env, row.workspaceId, credentialCheckJob(row.providerCode, row.id, row.createdAt));
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    console.warn(JSON.stringify({ event: "credential-check-refused", credentialId: row.id, code: err.code }));
  }
}

/** After a registration's batch: what it superseded loses its secret (once unused) and the new credential is checked. */
export async function credentialReplaced(env: JobsEnv, row: CredentialRow, superseded: string[]): Promise<void> {
  if (superseded.length === 0) return;
  await Promise.all(superseded.map((id) => eraseSupersededSecret(env.DB, id)));
  await runCredentialCheck(env, row);
}

/** Registers a credential directly, superseding the workspace's live one with the same identity. */
export async function registerCredential(env: JobsEnv, row: CredentialRow): Promise<CredentialRow> {
  await assertIdentitiesKnown(env.DB, row.workspaceId);
  const [supersede] = await env.DB.batch(replaceCredentialStatements(env.DB, row)).catch((err: unknown) => {
    throw isIdentityConflict(err) ? alreadyExists() : err;
  });
  await credentialReplaced(env, row, supersededIds(supersede!));
  return findCredential(env.DB, row.workspaceId, row.id);
}
