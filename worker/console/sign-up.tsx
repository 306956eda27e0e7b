import type { Context } from "hono";
import { csrfToken, verifiedForm } from "../domain/console-sessions/csrf";
import type { ConsoleEnv } from "./context";
import { countSignUpAttempt } from "../domain/console-sessions/login-attempts";
import { ApiError } from "../platform/errors/api-error";
import { clientAddress } from "../platform/http/client-address";
import { isValidBusinessNumber } from "../../contracts/business-number";
import { isPersonalEmail } from "../domain/users/email";
import { signUp } from "../domain/users/store";
import { mailVerificationLink } from "./verify-email";
import { assertBounded, FORM_FIELD_BOUNDS } from "../web/form-bounds";
import { CsrfField, ErrorAlert, Page } from "../web/layout";
import { startSession } from "./start-session";

export const MIN_PASSWORD_LENGTH = 10;
const businessDigits = (value: string) => value.replace(/[\s-]/g, "");
const EMAIL = /^[^\s@]{1,64}@[^\s@]+\.[^\s@]{2,}$/;

async function form(c: Context<ConsoleEnv>, values: { email?: string; workspaceName?: string; businessNumber?: string } = {}, error?: ApiError) {
  const csrf = await csrfToken(c, null);
  return c.html(
    <Page title="회원가입">
      <ErrorAlert error={error} />
      <form method="post" action="/console/sign-up">
        <CsrfField token={csrf} />
        <label for="email">회사 이메일</label>
        <input id="email" name="email" type="email" autocomplete="email" maxlength={FORM_FIELD_BOUNDS.email.max} required value={values.email ?? ""} />
        <label for="password">비밀번호 ({MIN_PASSWORD_LENGTH}자 이상)</label>
        <input id="password" name="password" type="password" autocomplete="new-password" minlength={MIN_PASSWORD_LENGTH} maxlength={FORM_FIELD_BOUNDS.password.max} required />
        <label for="workspaceName">워크스페이스 이름 (회사 이름)</label>
        <input id="workspaceName" name="workspaceName" maxlength={FORM_FIELD_BOUNDS.workspaceName.max} required value={values.workspaceName ?? ""} />
        <label for="businessNumber">사업자등록번호</label>
        <input id="businessNumber" name="businessNumber" inputmode="numeric" placeholder="123-45-67890" maxlength={FORM_FIELD_BOUNDS.businessNumber.max} required value={values.businessNumber ?? ""} />
        <p>인증서와 국세청 자료는 이 사업자의 것만 등록하고 수집합니다.</p>
        <button type="submit">가입하기</button>
      </form>
      <p>
        이미 계정이 있나요? <a href="/console/sign-in">로그인</a>
      </p>
    </Page>,
    (error?.status ?? 200) as 200,
    error?.headers,
  );
}

/** A new password shorter than MIN_PASSWORD_LENGTH: 400 INVALID_PARAM_FORMAT, saying so; else null. */
export function shortPassword(password: string): ApiError | null {
  return password.length < MIN_PASSWORD_LENGTH ? new ApiError("INVALID_PARAM_FORMAT", { message: `비밀번호는 ${MIN_PASSWORD_LENGTH}자 이상이어야 합니다.` }) : null;
}

/** Why the posted sign-up cannot be accepted, or null. */
function refusal(fields: Record<string, string>): ApiError | null {
  const email = fields.email?.trim() ?? "";
  if (!email || !fields.password || !fields.workspaceName?.trim() || !fields.businessNumber?.trim()) {
    return new ApiError("MISSING_REQUIRED_PARAM", { message: "이메일, 비밀번호, 워크스페이스 이름, 사업자등록번호를 모두 입력해 주세요." });
  }
  if (!isValidBusinessNumber(businessDigits(fields.businessNumber))) return new ApiError("INVALID_BUSINESS_REGISTRATION_NUMBER");
  if (!EMAIL.test(email)) return new ApiError("INVALID_PARAM_FORMAT", { message: "이메일 형식이 올바르지 않습니다." });
  const short = shortPassword(fields.password);
  if (short) return short;
  if (isPersonalEmail(email)) return new ApiError("PERSONAL_EMAIL_NOT_ALLOWED");
  return null;
}

export const showSignUp = (c: Context<ConsoleEnv>) => form(c);

export async function submitSignUp(c: Context<ConsoleEnv>): Promise<Response> {
  const fields = await verifiedForm(c, null);
  try {
    assertBounded(fields, ["email", "password", "workspaceName", "businessNumber"]);
  } catch (err) {
    return form(c, {}, err as ApiError);
  }
  const values = { email: fields.email, workspaceName: fields.workspaceName, businessNumber: fields.businessNumber };
  const refused = refusal(fields);
  if (refused) return form(c, values, refused);
  try {
    await countSignUpAttempt(c.env.DB, clientAddress(c));
    const { user, workspaceId } = await signUp(c.env.DB, {
      email: fields.email!,
      password: fields.password!,
      workspaceName: fields.workspaceName!.trim(),
      businessNumber: businessDigits(fields.businessNumber!),
    });
    await mailVerificationLink(c, user);
    return await startSession(c, user.id, `/console/w/${workspaceId}/keys`);
  } catch (err) {
    if (err instanceof ApiError && (err.code === "DUPLICATE_EMAIL" || err.code === "API_RATE_LIMITED")) return form(c, values, err);
    throw err;
  }
}
