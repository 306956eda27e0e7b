import type { Context } from "hono";
import { csrfToken, verifiedForm } from "../console-sessions/csrf";
import { unlockAccount } from "../console-sessions/login-attempts";
import type { AppEnv } from "../env";
import { ApiError } from "../errors/api-error";
import { sendMail } from "../mail/outbox";
import { issueAccountLink, LINK_TTL_MS, useAccountLink } from "../users/account-links";
import { findUser } from "../users/store";
import { CsrfField, ErrorAlert, Page } from "./layout";
import { SIGN_IN_PATH } from "./signed-in";

export const UNLOCK_PATH = "/console/unlock";

/** Mails the owner of an account that is being guessed a one-time link that forgives every address's failures on it. */
export async function mailUnlockLink(c: Context<AppEnv>, user: { id: string; email: string }, failures: number): Promise<void> {
  const token = await issueAccountLink(c.env.DB, user.id, "UNLOCK");
  const link = `${new URL(c.req.url).origin}${UNLOCK_PATH}?token=${token}`;
  await sendMail(c.env, {
    to: user.email,
    subject: "로그인 시도가 반복되어 일부 접속이 제한되었습니다",
    text: [
      `${user.email} 계정에 비밀번호가 틀린 로그인 시도가 ${failures}번 있었습니다. 시도한 곳은 잠시 기다려야 다시 로그인할 수 있습니다.`,
      `본인이 시도한 것이라면 아래 링크로 제한을 바로 풀 수 있습니다 (${LINK_TTL_MS / 60_000}분 동안 한 번).`,
      "본인이 아니라면 비밀번호를 바꾸는 것을 권합니다. 다른 곳에서 시도한 실패는 본인의 로그인을 막지 않습니다.",
      "",
      link,
    ].join("\n"),
  });
}

// The link opens a page with a button rather than unlocking on GET: mail scanners that follow links must not spend it.
async function page(c: Context<AppEnv>, shown: { token?: string; done?: boolean; error?: ApiError }) {
  const csrf = await csrfToken(c, null);
  return c.html(
    <Page title="로그인 제한 풀기">
      <ErrorAlert error={shown.error} />
      {shown.done ? (
        <p class="notice" role="status" id="unlocked">
          로그인 제한을 풀었습니다. <a href={SIGN_IN_PATH}>로그인</a>
        </p>
      ) : (
        <form method="post" action={UNLOCK_PATH}>
          <CsrfField token={csrf} />
          <input type="hidden" name="token" value={shown.token ?? ""} />
          <p>이 계정에 대한 모든 곳의 로그인 실패 기록을 지우고 제한을 풉니다.</p>
          <button type="submit">제한 풀기</button>
        </form>
      )}
    </Page>,
    (shown.error?.status ?? 200) as 200,
  );
}

export const showUnlock = (c: Context<AppEnv>) => page(c, { token: c.req.query("token")?.slice(0, 100) });

export async function submitUnlock(c: Context<AppEnv>): Promise<Response> {
  const fields = await verifiedForm(c, null);
  try {
    const userId = await useAccountLink(c.env.DB, (fields.token ?? "").slice(0, 100), "UNLOCK");
    const user = await findUser(c.env.DB, userId);
    if (user) await unlockAccount(c.env.DB, user.email);
    return page(c, { done: true });
  } catch (err) {
    if (err instanceof ApiError) return page(c, { error: err });
    throw err;
  }
}
