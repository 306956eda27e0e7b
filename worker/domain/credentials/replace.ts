import { jobError } from "../../../contracts/job-failures";
import { type ActiveJobCheck, alreadyExists, assertIdentitiesKnown, type CredentialRow, eraseSupersededSecret, findCredential, isIdentityConflict, replaceCredentialStatements, supersededIds } from "./store";
import { type ProbeMessage, settleCheck, startCheck } from "./login-checks";
import { log } from "../../platform/observability/telemetry";
import { ApiError } from "../../platform/errors/api-error";

type RegistrationEnv = Pick<Env, "DB"> & { TASKS: Queue<ProbeMessage> };

/** Whether a registration is checked with a login once it is in, in the background (CREDENTIAL_CHECKS, platform/settings.d.ts). */
export const checksOnRegistration = (env: Pick<Env, "CREDENTIAL_CHECKS">): boolean => env.CREDENTIAL_CHECKS === undefined || env.CREDENTIAL_CHECKS === "";

/** Whether the hosted page checks an ID login at the institution before it stores it (CREDENTIAL_CHECKS, platform/settings.d.ts). */
export const checksHostedLogins = (env: Pick<Env, "CREDENTIAL_CHECKS">): boolean => env.CREDENTIAL_CHECKS !== "off";

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

/**
 * Checks a live credential again, at `providerCode` (a global certificate's choice): false when there is no secret to
 * log in with. A second check of one credential within a minute is 429 API_RATE_LIMITED with Retry-After: each is a
 * login at the institution holding the credential's lease, and repeated logins bring an account closer to its lock.
 */
export async function recheckCredential(env: RegistrationEnv, credential: CredentialRow, providerCode: string): Promise<boolean> {
  const started = await startCheck(env.DB, credential.id);
  if ("checkId" in started) return sendProbe(env, credential, providerCode, started.checkId);
  if (started.refused === "NO_SECRET") return false;
  throw new ApiError("API_RATE_LIMITED", {
    message: `이 자격 증명은 1분 안에 이미 확인을 요청했습니다. 확인할 때마다 기관에 로그인하므로 한 자격 증명은 1분에 한 번만 확인합니다. ${started.retryAfterSeconds}초 뒤에 다시 시도해 주세요.`,
    headers: { "Retry-After": String(started.retryAfterSeconds) },
  });
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
