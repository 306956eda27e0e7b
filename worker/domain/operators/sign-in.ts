import { admitLoginAttempt, forgiveLoginAttempt, recordFailedLogin } from "../console-sessions/login-attempts";
import type { Bindings } from "../../env";
import { ApiError } from "../../platform/errors/api-error";
import { normalizeEmail } from "../users/email";
import { UNMATCHABLE_HASH, verifyPassword } from "../users/password";
import { openText } from "../vault/envelope";
import { markAction } from "./audit";
import { totpBinding } from "./enrol";
import { acceptedStep } from "./second-factor";
import { findOperatorByEmail, openOperatorSession, type OperatorRow, useTotpStep } from "./store";

/** Operators' sign-in attempts are counted apart from console users' (domain/console-sessions/login-attempts.ts), under this subject. */
const attemptSubject = (email: string) => `operator:${email}`;

async function secondFactorStep(env: Pick<Bindings, "VAULT_MASTER_KEY">, operator: OperatorRow, code: string): Promise<number | null> {
  const secret = await openText(env.VAULT_MASTER_KEY, totpBinding(operator.id), operator.totpSealed);
  return acceptedStep(secret, code, operator.totpLastStep);
}

/**
 * Password and a TOTP code, both right, open an operator session; anything wrong is one answer, INVALID_CREDENTIALS,
 * which does not say which part failed. Attempts are limited like console sign-ins, and a code opens one session.
 */
export async function signInOperator(
  env: Pick<Bindings, "DB" | "VAULT_MASTER_KEY">,
  input: { email: string; password: string; code: string },
  address: string,
  requestId: string,
): Promise<{ token: string; expiresAt: number; operator: OperatorRow }> {
  const email = normalizeEmail(input.email);
  await admitLoginAttempt(env.DB, attemptSubject(email), address);
  const operator = await findOperatorByEmail(env.DB, email);
  const passwordMatches = await verifyPassword(input.password, operator?.passwordHash ?? UNMATCHABLE_HASH);
  const step = operator && passwordMatches ? await secondFactorStep(env, operator, input.code) : null;
  if (!operator || step === null || !(await useTotpStep(env.DB, operator.id, step))) {
    await recordFailedLogin(env.DB, attemptSubject(email), address);
    throw new ApiError("INVALID_CREDENTIALS", { message: "이메일, 비밀번호 또는 인증 코드가 올바르지 않습니다." });
  }
  await forgiveLoginAttempt(env.DB, attemptSubject(email), address);
  await markAction(env.DB, operator, requestId, { action: "operator.sign-in", targetKind: "operator", targetId: operator.id, reason: null });
  return { ...(await openOperatorSession(env.DB, operator.id)), operator };
}
