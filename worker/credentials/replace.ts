import { findProvider } from "../catalog/providers";
import { findSchema } from "../catalog/schemas";
import { ApiError } from "../errors/api-error";
import { createJob } from "../jobs/create";
import type { JobsEnv } from "../jobs/lifecycle";
import { type CredentialRow, eraseSupersededSecret, replaceCredentialStatements, supersededIds } from "./store";

const KST_OFFSET_MS = 9 * 3_600_000;
const DAY_MS = 86_400_000;

/** The smallest job of a provider: a schema without a period if it has one, else one day (yesterday, KST). */
function credentialCheckJob(providerCode: string, now: number) {
  const schemas = findProvider(providerCode)!.schemas.map((id) => findSchema(id)!);
  const undated = schemas.find((s) => !s.datedRange);
  if (undated) return { providerCode, schema: undated.id, params: {} };
  const yesterday = new Date(now + KST_OFFSET_MS - DAY_MS).toISOString().slice(0, 10);
  return { providerCode, schema: schemas[0]!.id, params: { dateRangeStart: yesterday, dateRangeEnd: yesterday } };
}

/**
 * The spec's credential check after a change: one small job on the new
 * credential, whose error category tells whether it logs in. The
 * registration itself succeeded either way, so a job the plan refuses
 * is only logged.
 */
async function runCredentialCheck(env: JobsEnv, row: CredentialRow): Promise<void> {
  try {
    await createJob(env, row.workspaceId, credentialCheckJob(row.providerCode, row.createdAt));
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

/** Registers a credential directly, superseding the workspace's live one for the provider. */
export async function registerCredential(env: JobsEnv, row: CredentialRow): Promise<CredentialRow> {
  const [supersede] = await env.DB.batch(replaceCredentialStatements(env.DB, row));
  await credentialReplaced(env, row, supersededIds(supersede!));
  return row;
}
