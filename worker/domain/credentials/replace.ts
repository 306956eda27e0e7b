import { jobError } from "../../../contracts/job-failures";
import type { Bindings } from "../../env";
import type { ProbeMessage } from "../jobs/messages";
import { type ActiveJobCheck, alreadyExists, assertIdentitiesKnown, type CredentialRow, eraseSupersededSecret, findCredential, isIdentityConflict, replaceCredentialStatements, settleCheck, startCheck, supersededIds } from "./store";
import { log } from "../../platform/observability/telemetry";

type RegistrationEnv = Pick<Bindings, "DB" | "TASKS">;

/** Whether a registration is checked with a login at once (CREDENTIAL_CHECKS, env.ts). */
export const checksOnRegistration = (env: Pick<Bindings, "CREDENTIAL_CHECKS">): boolean => env.CREDENTIAL_CHECKS !== "off";

/**
 * Sends a credential's login check to the pipeline (domain/pipeline/probe.ts). The check is recorded before the send, so
 * a send that fails must not leave it CHECKING for ever: it is settled UNKNOWN, for the owner to check again.
 */
export async function sendProbe(env: RegistrationEnv, credential: Pick<CredentialRow, "id" | "workspaceId">, providerCode: string, checkId: string): Promise<boolean> {
  const message: ProbeMessage = { type: "probe", credentialId: credential.id, workspaceId: credential.workspaceId, providerCode, checkId };
  try {
    await env.TASKS.send(message);
    return true;
  } catch (err) {
    log("error", "probe-send-failed", { credentialId: credential.id, error: String(err) });
    await settleCheck(env.DB, credential.id, checkId, { state: "UNKNOWN", error: jobError("INTERNAL_ERROR") }, Date.now());
    return false;
  }
}

/** Checks a live credential again, at `providerCode` (a global certificate's choice): false when there is no secret to log in with. */
export async function recheckCredential(env: RegistrationEnv, credential: CredentialRow, providerCode: string): Promise<boolean> {
  const checkId = await startCheck(env.DB, credential.id);
  return checkId !== null && (await sendProbe(env, credential, providerCode, checkId));
}

/** After a registration's batch: what it superseded loses its secret (once unused), and the new credential is checked. */
export async function credentialRegistered(env: RegistrationEnv, row: CredentialRow, superseded: string[], hasActiveJob: ActiveJobCheck): Promise<void> {
  await Promise.all(superseded.map((id) => eraseSupersededSecret(env.DB, id, hasActiveJob)));
  if (row.checkId) await sendProbe(env, row, row.providerCode, row.checkId);
}

/** Registers a credential directly, superseding the workspace's live one with the same identity. */
export async function registerCredential(env: RegistrationEnv, row: CredentialRow, hasActiveJob: ActiveJobCheck): Promise<CredentialRow> {
  await assertIdentitiesKnown(env.DB, row.workspaceId);
  const [supersede] = await env.DB.batch(replaceCredentialStatements(env.DB, row)).catch((err: unknown) => {
    throw isIdentityConflict(err) ? alreadyExists() : err;
  });
  await credentialRegistered(env, row, supersededIds(supersede!), hasActiveJob);
  return findCredential(env.DB, row.workspaceId, row.id);
}
