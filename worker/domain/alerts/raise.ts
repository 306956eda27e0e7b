import { alertDesk } from "./alert-desk";
import { ALERTED_CODES, type ApiErrorCode } from "../../platform/errors/codes";
import { log } from "../../platform/observability/telemetry";

/**
 * Counts an occurrence of a flagged code (the spec's *) toward its alert (domain/alerts/alert-desk.ts); any other
 * code is ignored. Never throws: counting must not turn the answer it watches into another error.
 */
export async function noteFlagged(env: Pick<Env, "ALERT_DESKS">, code: string, providerCode: string, example: string): Promise<void> {
  if (!ALERTED_CODES.has(code as ApiErrorCode)) return;
  await noteAlerted(env, code as ApiErrorCode, providerCode, example);
}

/**
 * Counts an occurrence toward its alert whatever the code: for what the service itself alerts on beyond the spec's
 * flagged codes (an operator account locked after its failures, domain/operators/sign-in.ts). Never throws.
 */
export async function noteAlerted(env: Pick<Env, "ALERT_DESKS">, code: ApiErrorCode, providerCode: string, example: string): Promise<void> {
  try {
    await alertDesk(env, code, providerCode).record(code, providerCode, example);
  } catch (err) {
    log("error", "operator-alert-count-failed", { code, providerCode, error: String(err) });
  }
}
