import type { Context } from "hono";
import type { ConsoleEnv } from "./context";
import { confirmEmail } from "../domain/users/store";
import { type MailedLink, mailedLinkPages, mailLink } from "./mailed-links";

/** Confirms the address a user signed up with; their workspaces may then use real institutions. */
export const VERIFY_EMAIL_LINK: MailedLink = {
  path: "/console/verify-email",
  purpose: "VERIFY_EMAIL",
  title: "이메일 주소 확인",
  explain: "이 주소로 가입한 것이 맞으면 확인해 주세요. 확인하면 워크스페이스에서 실제 기관도 쓸 수 있습니다.",
  button: "이메일 주소 확인",
  done: "이메일 주소를 확인했습니다.",
  use: (c, userId) => confirmEmail(c.env.DB, userId),
};

export const verifyEmailPages = mailedLinkPages(VERIFY_EMAIL_LINK);

export function mailVerificationLink(c: Context<ConsoleEnv>, user: { id: string; email: string }): Promise<void> {
  return mailLink(c, VERIFY_EMAIL_LINK, user, "이메일 주소를 확인해 주세요", [
    `${user.email}로 콘솔에 가입했습니다. 아래 링크로 이메일 주소를 확인해 주세요.`,
    "확인하기 전에는 샌드박스 기관만 쓸 수 있고, 실제 기관의 자격 증명은 등록할 수 없습니다.",
  ]);
}
