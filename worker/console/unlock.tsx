import type { Context } from "hono";
import { unlockAccount } from "../domain/console-sessions/login-attempts";
import type { ConsoleEnv } from "./context";
import { findUser } from "../domain/users/store";
import { type MailedLink, mailedLinkPages, mailLink } from "./mailed-links";

/** Forgives every address's failures on the account of the user it was mailed to. */
export const UNLOCK_LINK: MailedLink = {
  path: "/console/unlock",
  purpose: "UNLOCK",
  title: "로그인 제한 풀기",
  explain: "이 계정에 대한 모든 곳의 로그인 실패 기록을 지우고 제한을 풉니다.",
  button: "제한 풀기",
  done: "로그인 제한을 풀었습니다.",
  async use(c, userId) {
    const user = await findUser(c.env.DB, userId);
    if (user) await unlockAccount(c.env.DB, user.email);
  },
};

export const unlockPages = mailedLinkPages(UNLOCK_LINK);

/** Mails the owner of an account that is being guessed the unlock link. */
export function mailUnlockLink(c: Context<ConsoleEnv>, user: { id: string; email: string }, failures: number): Promise<void> {
  return mailLink(c, UNLOCK_LINK, user, "로그인 시도가 반복되어 일부 접속이 제한되었습니다", [
    `${user.email} 계정에 비밀번호가 틀린 로그인 시도가 ${failures}번 있었습니다. 시도한 곳은 잠시 기다려야 다시 로그인할 수 있습니다.`,
    "본인이 시도한 것이라면 아래 링크로 제한을 바로 풀 수 있습니다.",
    "본인이 아니라면 비밀번호를 바꾸는 것을 권합니다. 다른 곳에서 시도한 실패는 본인의 로그인을 막지 않습니다.",
  ]);
}
