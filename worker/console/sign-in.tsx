import type { Context } from "hono";
import { clearSessionCookie } from "../domain/console-sessions/cookies";
import { csrfToken, verifiedForm } from "../domain/console-sessions/csrf";
import { admitLoginAttempt, forgiveLoginAttempt, recordFailedLogin, UNLOCK_MAIL_AFTER } from "../domain/console-sessions/login-attempts";
import { closeSession, closeUserSessions } from "../domain/console-sessions/store";
import { type ConsoleEnv, consoleUserOf } from "./context";
import { ApiError } from "../platform/errors/api-error";
import { clientAddress } from "../platform/http/client-address";
import { normalizeEmail } from "../domain/users/email";
import { UNMATCHABLE_HASH, verifyPassword } from "../domain/users/password";
import { findUserByEmail } from "../domain/users/store";
import { assertBounded, FORM_FIELD_BOUNDS } from "../web/form-bounds";
import { CsrfField, ErrorAlert, Page } from "../web/layout";
import { SIGN_IN_PATH } from "./signed-in";
import { landingPath, startSession } from "./start-session";
import { mailUnlockLink } from "./unlock";

async function form(c: Context<ConsoleEnv>, values: { email?: string; next?: string } = {}, error?: ApiError) {
  const csrf = await csrfToken(c, null);
  return c.html(
    <Page title="로그인">
      <ErrorAlert error={error} />
      <form method="post" action={SIGN_IN_PATH}>
        <CsrfField token={csrf} />
        <input type="hidden" name="next" value={values.next ?? ""} />
        <label for="email">이메일</label>
        <input id="email" name="email" type="email" autocomplete="username" maxlength={FORM_FIELD_BOUNDS.email.max} required value={values.email ?? ""} />
        <label for="password">비밀번호</label>
        <input id="password" name="password" type="password" autocomplete="current-password" maxlength={FORM_FIELD_BOUNDS.password.max} required />
        <button type="submit">로그인</button>
      </form>
      <p>
        계정이 없나요? <a href="/console/sign-up">회원가입</a>
      </p>
    </Page>,
    (error?.status ?? 200) as 200,
    error?.headers,
  );
}

export const showSignIn = (c: Context<ConsoleEnv>) => form(c, { next: c.req.query("next") });

export async function submitSignIn(c: Context<ConsoleEnv>): Promise<Response> {
  const fields = await verifiedForm(c, null);
  try {
    assertBounded(fields, ["email", "password", "next"]);
  } catch (err) {
    return form(c, {}, err as ApiError);
  }
  const email = normalizeEmail(fields.email ?? "");
  const values = { email, next: fields.next };
  try {
    if (!email || !fields.password) throw new ApiError("INVALID_CREDENTIALS");
    await admitLoginAttempt(c.env.DB, email, clientAddress(c));
    const user = await findUserByEmail(c.env.DB, email);
    // An unknown e-mail costs the same hash as a known one, so timing does not tell which addresses have accounts.
    const matches = await verifyPassword(fields.password, user?.passwordHash ?? UNMATCHABLE_HASH);
    if (!user || !matches) {
      const failures = await recordFailedLogin(c.env.DB, email, clientAddress(c));
      if (user && failures === UNLOCK_MAIL_AFTER) await mailUnlockLink(c, user, failures);
      throw new ApiError("INVALID_CREDENTIALS");
    }
    await forgiveLoginAttempt(c.env.DB, email, clientAddress(c));
    return await startSession(c, user.id, landingPath(fields.next));
  } catch (err) {
    if (err instanceof ApiError) return form(c, values, err);
    throw err;
  }
}

/** Signs out this browser, or with `everywhere` every browser of the user. */
const signOutOf = (everywhere: boolean) => async (c: Context<ConsoleEnv>): Promise<Response> => {
  const user = consoleUserOf(c);
  await verifiedForm(c, user.sessionToken);
  await (everywhere ? closeUserSessions(c.env.DB, user.userId) : closeSession(c.env.DB, user.tokenHash));
  clearSessionCookie(c);
  return c.redirect(SIGN_IN_PATH, 303);
};

export const signOut = signOutOf(false);
export const signOutEverywhere = signOutOf(true);
