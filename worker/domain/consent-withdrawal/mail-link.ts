import type { Bindings } from "../../env";
import { sendMail } from "../mail/outbox";

/**
 * Mails the holder their manage link, on the workspace's request (`until`: its expiry as the reader's clock says it).
 * The token is the link's secret, so where a binding carries the mail the stored copy keeps its hash only.
 */
export function mailManageLink(env: Pick<Bindings, "DB" | "MAIL" | "MAIL_FROM" | "MAIL_OUTBOX_ONLY">, to: string, link: { token: string; url: string }, requester: string, until: string): Promise<void> {
  return sendMail(env, {
    to,
    subject: `${requester}에 맡긴 자격 증명 관리 링크`,
    text: [
      `${requester}이(가) 보관 중인 로그인(또는 인증서, 오픈뱅킹 동의)의 관리 링크입니다.`,
      "아래 링크에서 무엇을 누구와 언제까지 공유하는지 보고, 동의를 철회할 수 있습니다.",
      `이 링크는 ${until}까지 쓸 수 있습니다. 요청한 적이 없다면 이 메일을 지워 주세요.`,
      "",
      link.url,
    ].join("\n"),
    secrets: [link.token],
  });
}
