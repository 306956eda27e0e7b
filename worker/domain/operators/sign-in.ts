import { accountFailures, admitLoginAttempt, forgiveLoginAttempt, recordAccountFailure, recordFailedLogin } from "../console-sessions/login-attempts";
import { noteAlerted } from "../alerts/raise";
import { NO_PROVIDER } from "../alerts/rules";
import { ApiError } from "../../platform/errors/api-error";
import { normalizeEmail } from "../users/email";
import { UNMATCHABLE_HASH, verifyPassword } from "../users/password";
import { openText, sealText } from "../vault/envelope";
import { markAction } from "./audit";
import { totpBinding } from "./enrol";
import { acceptedStep } from "./second-factor";
import { findOperatorByEmail, openOperatorSession, type Operator, type OperatorRow, useTotpStep } from "./store";

/** Operators' sign-in attempts are counted apart from console users' (domain/console-sessions/login-attempts.ts), under this subject. */
const attemptSubject = (email: string) => `operator:${email}`;

/**
 * Failures on one operator account, from any addresses, within a counting window (15 minutes from the first), after
 * which the account takes no sign-in, not even the right one, until that window closes; the operators are alerted.
 */
export const OPERATOR_LOCK_AFTER = 10;

type SignInEnv = Pick<Env, "DB" | "VAULT_MASTER_KEY" | "ALERT_DESKS">;

/** A well-formed TOTP secret no operator has: the code is checked against it when the account or the password is wrong. */
const DUMMY_TOTP_SECRET = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ";
const DUMMY_BINDING = ["operator-totp", "no-operator"];
/** A sealed secret opened when no operator has the e-mail, so an unknown account costs the vault's work too; sealed once per master key. */
const dummySealed = new Map<string, Promise<string>>();

/** The operator's TOTP secret, or for an unknown e-mail a dummy one, opened from the vault either way. */
function openedSecret(env: SignInEnv, operator: OperatorRow | null): Promise<string> {
  if (operator) return openText(env.VAULT_MASTER_KEY, totpBinding(operator.id), operator.totpSealed);
  let sealed = dummySealed.get(env.VAULT_MASTER_KEY);
  if (!sealed) dummySealed.set(env.VAULT_MASTER_KEY, (sealed = sealText(env.VAULT_MASTER_KEY, DUMMY_BINDING, DUMMY_TOTP_SECRET)));
  return sealed.then((blob) => openText(env.VAULT_MASTER_KEY, DUMMY_BINDING, blob));
}

const wrong = () => new ApiError("INVALID_CREDENTIALS", { message: "이메일, 비밀번호 또는 인증 코드가 올바르지 않습니다." });

/** 429 TOO_MANY_LOGIN_ATTEMPTS with Retry-After while the account (known or not, so the answer tells nothing) is locked. */
async function refuseLocked(d1: D1Database, subject: string, now: number = Date.now()): Promise<void> {
  const { failures, windowEndsAt } = await accountFailures(d1, subject, now);
  if (failures < OPERATOR_LOCK_AFTER) return;
  const minutes = Math.max(1, Math.ceil((windowEndsAt - now) / 60_000));
  throw new ApiError("TOO_MANY_LOGIN_ATTEMPTS", {
    message: `실패가 많아 이 운영자 계정을 잠갔습니다. ${minutes}분 뒤에 다시 시도해 주세요. 본인이 아니라면 다른 운영자에게 알려 주세요.`,
    headers: { "Retry-After": String(Math.max(1, Math.ceil((windowEndsAt - now) / 1000))) },
  });
}

/** The account's failures reached the lock: the operators hear of it (domain/alerts/, one alert while they keep coming). */
async function alertIfLocked(env: SignInEnv, failures: number, operator: Pick<OperatorRow, "id" | "email"> | null, requestId: string): Promise<void> {
  if (operator && failures === OPERATOR_LOCK_AFTER) await noteAlerted(env, "TOO_MANY_LOGIN_ATTEMPTS", NO_PROVIDER, `operator ${operator.email} (${operator.id}) locked, request ${requestId}`);
}

/**
 * Password and a TOTP code, both right, open an operator session; anything wrong is one answer, INVALID_CREDENTIALS,
 * which does not say which part failed. Attempts are limited like console sign-ins, and a code opens one session.
 * The same work is done whatever is wrong: the password is hashed against a dummy for an unknown e-mail, a TOTP
 * secret is opened from the vault (a dummy one for an unknown e-mail) and the code checked at every step it may
 * be (against the dummy secret when the account or the password is wrong), so timing tells neither whether the
 * account exists nor whether the password was right. OPERATOR_LOCK_AFTER failures lock the account for the rest
 * of its window and raise an operators' alert.
 */
export async function signInOperator(
  env: SignInEnv,
  input: { email: string; password: string; code: string },
  address: string,
  requestId: string,
): Promise<{ token: string; expiresAt: number; operator: OperatorRow }> {
  const email = normalizeEmail(input.email);
  const subject = attemptSubject(email);
  await admitLoginAttempt(env.DB, subject, address);
  await refuseLocked(env.DB, subject);
  const operator = await findOperatorByEmail(env.DB, email);
  const passwordMatches = await verifyPassword(input.password, operator?.passwordHash ?? UNMATCHABLE_HASH);
  const secret = await openedSecret(env, operator);
  const checked = operator && passwordMatches ? secret : DUMMY_TOTP_SECRET;
  const step = await acceptedStep(checked, input.code, operator?.totpLastStep ?? 0);
  if (!operator || !passwordMatches || step === null || !(await useTotpStep(env.DB, operator.id, step))) {
    await alertIfLocked(env, await recordFailedLogin(env.DB, subject, address), operator, requestId);
    throw wrong();
  }
  await forgiveLoginAttempt(env.DB, subject, address);
  await markAction(env.DB, operator, requestId, { action: "operator.sign-in", targetKind: "operator", targetId: operator.id, reason: null });
  return { ...(await openOperatorSession(env.DB, operator.id)), operator };
}

/**
 * A signed-in operator's fresh code from their authenticator, asked again before the actions that move money
 * (refunds, credits: domain/operators/actions.ts). Good once, like a sign-in's (it spends its time step); a wrong
 * one is 401 INVALID_CREDENTIALS and counts toward the account's lock like a failed sign-in.
 */
export async function confirmFreshCode(env: SignInEnv, operator: Operator, code: string | undefined, requestId: string): Promise<void> {
  const subject = attemptSubject(operator.email);
  await refuseLocked(env.DB, subject);
  const row = await findOperatorByEmail(env.DB, operator.email);
  const step = row && row.id === operator.id ? await acceptedStep(await openedSecret(env, row), code ?? "", row.totpLastStep) : null;
  if (row && step !== null && (await useTotpStep(env.DB, row.id, step))) return;
  await alertIfLocked(env, await recordAccountFailure(env.DB, subject), operator, requestId);
  throw new ApiError("INVALID_CREDENTIALS", {
    message: "이 작업에는 인증 앱의 새 6자리 코드가 필요합니다. 코드가 틀렸거나 이미 쓰였습니다. 다음 코드가 나오면 다시 시도해 주세요.",
  });
}
