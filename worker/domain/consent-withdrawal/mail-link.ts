import { ApiError } from "../../platform/errors/api-error";
import { sendMail } from "../mail/outbox";
import { isSandboxOnly } from "../workspaces/provider-access";
import { countWorkspaceMail, MAIL_WINDOW_MS } from "../console-sessions/login-attempts";

/**
 * Manage-link mails one workspace may have sent a day: the service mails any address the workspace names, so this
 * bounds what a stolen key or a careless loop can send in the service's name. Partners show the link in their own
 * product as a rule; the mail is for the few holders who are not there.
 */
export const MANAGE_LINK_MAILS_PER_DAY = 20;

/** Fixed: a subject is what a mail client shows unopened, so nothing the workspace wrote and no URL goes in it. */
const SUBJECT = "[데이터 수집 서비스] 맡긴 자격 증명 관리 링크";

/**
 * Mails the holder their manage link, on the workspace's request (`until`: its expiry as the reader's clock says it).
 * `sender` is the workspace whose key asks (a partner's own, for its businesses too): one whose owner has not
 * confirmed their e-mail has shown it can be reached nowhere and sends none (403 WORKSPACE_ACCESS_DENIED), and past
 * MANAGE_LINK_MAILS_PER_DAY in its day window none either (429 API_RATE_LIMITED). The token is the link's secret, so
 * where a binding carries the mail the stored copy keeps its hash only.
 */
export async function mailManageLink(
  env: Pick<Env, "DB" | "MAIL" | "MAIL_FROM" | "MAIL_OUTBOX_ONLY">,
  sender: string,
  to: string,
  link: { token: string; url: string },
  requester: string,
  until: string,
  now: number,
): Promise<void> {
  if (await isSandboxOnly(env.DB, sender)) {
    throw new ApiError("WORKSPACE_ACCESS_DENIED", { message: "이메일 주소를 확인하기 전에는 관리 링크를 메일로 보낼 수 없습니다. 가입할 때 받은 메일의 링크를 누르거나, 링크를 직접 전해 주세요." });
  }
  const { count, windowEndsAt } = await countWorkspaceMail(env.DB, sender, now);
  if (count > MANAGE_LINK_MAILS_PER_DAY) {
    const retryAfter = Math.max(1, Math.ceil((windowEndsAt - now) / 1000));
    throw new ApiError("API_RATE_LIMITED", {
      message: `관리 링크 메일은 워크스페이스마다 ${MAIL_WINDOW_MS / 3_600_000}시간에 ${MANAGE_LINK_MAILS_PER_DAY}통까지 보낼 수 있습니다. ${Math.ceil(retryAfter / 3600)}시간 뒤에 다시 보내거나, 링크를 직접 전해 주세요.`,
      headers: { "Retry-After": String(retryAfter) },
    });
  }
  await sendMail(env, {
    to,
    subject: SUBJECT,
    text: [
      `"${requester}"이(가) 보관 중인 로그인(또는 인증서, 오픈뱅킹 동의)의 관리 링크입니다.`,
      "아래 링크에서 무엇을 누구와 언제까지 공유하는지 보고, 동의를 철회할 수 있습니다.",
      `이 링크는 ${until}까지 쓸 수 있습니다. 요청한 적이 없다면 이 메일을 지워 주세요.`,
      "",
      link.url,
    ].join("\n"),
    secrets: [link.token],
  }, now);
}
