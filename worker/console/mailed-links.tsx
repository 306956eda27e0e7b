import type { Context } from "hono";
import { csrfToken, verifiedForm } from "../domain/console-sessions/csrf";
import type { ConsoleEnv } from "./context";
import { ApiError } from "../platform/errors/api-error";
import { sendMail } from "../domain/mail/outbox";
import { type AccountLinkPurpose, issueAccountLink, LINK_TTL_MS, useAccountLink } from "../domain/users/account-links";
import { CsrfField, ErrorAlert, Page } from "../web/layout";
import { SIGN_IN_PATH } from "./signed-in";

/** A one-time link the console mails a user, and the page it opens. */
export interface MailedLink {
  path: string;
  purpose: AccountLinkPurpose;
  title: string;
  /** What the button does, said above it. */
  explain: string;
  button: string;
  done: string;
  /** What following the link does, for the user it was mailed to. */
  use(c: Context<ConsoleEnv>, userId: string): Promise<void>;
}

/** Mails `user` a new link of this kind, below the lines of text given. */
export async function mailLink(c: Context<ConsoleEnv>, link: MailedLink, user: { id: string; email: string }, subject: string, lines: string[]): Promise<void> {
  const token = await issueAccountLink(c.env.DB, user.id, link.purpose);
  const url = `${new URL(c.req.url).origin}${link.path}?token=${token}`;
  await sendMail(c.env, { to: user.email, subject, text: [...lines, `이 링크는 ${LINK_TTL_MS / 60_000}분 동안 한 번 쓸 수 있습니다.`, "", url].join("\n"), secrets: [token] });
}

/**
 * The link's page: a button that spends the link, not the GET that opens it, so mail scanners that follow links
 * cannot spend it. Works signed out: the token is the proof.
 */
export function mailedLinkPages(link: MailedLink) {
  async function page(c: Context<ConsoleEnv>, shown: { token?: string; done?: boolean; error?: ApiError }) {
    const csrf = await csrfToken(c, null);
    return c.html(
      <Page title={link.title}>
        <ErrorAlert error={shown.error} />
        {shown.done ? (
          <p class="notice" role="status" id="link-done">
            {link.done} <a href={SIGN_IN_PATH}>로그인</a>
          </p>
        ) : (
          <form method="post" action={link.path}>
            <CsrfField token={csrf} />
            <input type="hidden" name="token" value={shown.token ?? ""} />
            <p>{link.explain}</p>
            <button type="submit">{link.button}</button>
          </form>
        )}
      </Page>,
      (shown.error?.status ?? 200) as 200,
    );
  }
  return {
    show: (c: Context<ConsoleEnv>) => page(c, { token: c.req.query("token")?.slice(0, 100) }),
    async submit(c: Context<ConsoleEnv>): Promise<Response> {
      const fields = await verifiedForm(c, null);
      try {
        await link.use(c, await useAccountLink(c.env.DB, (fields.token ?? "").slice(0, 100), link.purpose));
        return page(c, { done: true });
      } catch (err) {
        if (err instanceof ApiError) return page(c, { error: err });
        throw err;
      }
    },
  };
}
