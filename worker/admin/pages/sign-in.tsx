import type { Context } from "hono";
import { csrfToken, verifiedForm } from "../../domain/console-sessions/csrf";
import { type AdminPagesEnv, operatorOf, operatorTokenOf } from "../context";
import { ApiError } from "../../platform/errors/api-error";
import { clientAddress } from "../../platform/http/client-address";
import { closeOperatorSession } from "../../domain/operators/store";
import { signInOperator } from "../../domain/operators/sign-in";
import { assertBounded, FORM_FIELD_BOUNDS } from "../../web/form-bounds";
import { CsrfField, ErrorAlert } from "../../web/layout";
import { clearOperatorCookie, setOperatorCookie } from "../../domain/operators/session-cookie";
import { ADMIN_SIGN_IN_PATH } from "./session";
import { SignedOutPage } from "./layout";

async function form(c: Context<AdminPagesEnv>, email = "", error?: ApiError) {
  return c.html(
    <SignedOutPage title="운영자 로그인">
      <ErrorAlert error={error} />
      <form method="post" action={ADMIN_SIGN_IN_PATH}>
        <CsrfField token={await csrfToken(c, null)} />
        <label for="email">이메일</label>
        <input id="email" name="email" type="email" autocomplete="username" maxlength={FORM_FIELD_BOUNDS.email.max} required value={email} />
        <label for="password">비밀번호</label>
        <input id="password" name="password" type="password" autocomplete="current-password" maxlength={FORM_FIELD_BOUNDS.password.max} required />
        <label for="code">인증 앱의 6자리 코드</label>
        <input id="code" name="code" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9]{6}" maxlength={6} required />
        <button type="submit">로그인</button>
      </form>
    </SignedOutPage>,
    (error?.status ?? 200) as 200,
    error?.headers,
  );
}

export const showOperatorSignIn = (c: Context<AdminPagesEnv>) => form(c);

export async function submitOperatorSignIn(c: Context<AdminPagesEnv>): Promise<Response> {
  const fields = await verifiedForm(c, null);
  try {
    assertBounded(fields, ["email", "password"]);
    if ((fields.code ?? "").length > 6) throw new ApiError("INVALID_CREDENTIALS", { message: "이메일, 비밀번호 또는 인증 코드가 올바르지 않습니다." });
    const session = await signInOperator(c.env, { email: fields.email ?? "", password: fields.password ?? "", code: fields.code ?? "" }, clientAddress(c), c.get("requestId"));
    setOperatorCookie(c, session.token);
    return c.redirect("/admin", 303);
  } catch (err) {
    if (err instanceof ApiError) return form(c, fields.email ?? "", err);
    throw err;
  }
}

export async function operatorSignOut(c: Context<AdminPagesEnv>): Promise<Response> {
  await verifiedForm(c, operatorTokenOf(c));
  await closeOperatorSession(c.env.DB, operatorOf(c).tokenHash);
  clearOperatorCookie(c);
  return c.redirect(ADMIN_SIGN_IN_PATH, 303);
}
