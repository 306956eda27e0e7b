import { Hono } from "hono";
import type { PageEnv } from "../../platform/http/app-env";
import { openManageLink } from "../../domain/consent-withdrawal/manage-link";
import { withdrawConsent } from "../../domain/consent-withdrawal/withdraw";
import { hasActiveJob } from "../../domain/jobs/store";
import { ApiError } from "../../platform/errors/api-error";
import { consolePageHeaders } from "../page-headers";
import { requireConfirmed } from "../confirm";
import { managePage } from "./page";

/** A token is about 200 characters (key id, claims, MAC); anything far longer is no token and is not verified. */
const MAX_TOKEN_LENGTH = 1024;

const invalidLink = () => new ApiError("INVALID_TOKEN", { message: "관리 링크가 올바르지 않습니다." });

const tokenOf = (token: string): string => {
  if (token.length > MAX_TOKEN_LENGTH) throw invalidLink();
  return token;
};

/**
 * The link carries no cookie and no ambient authority: only a request naming the token acts. A post from another
 * site (one that learnt a link) is refused by what the browser says of its origin; a page framing ours is refused by
 * the headers (frame-ancestors 'none').
 */
function assertSameSite(c: { req: { header(name: string): string | undefined; url: string } }): void {
  const origin = c.req.header("Origin");
  const site = c.req.header("Sec-Fetch-Site");
  if ((origin !== undefined && origin !== new URL(c.req.url).origin) || (site !== undefined && site !== "same-origin")) {
    throw new ApiError("MALFORMED_REQUEST", { message: "다른 사이트에서 보낸 철회 요청은 받지 않습니다. 받은 링크를 직접 열어 철회해 주세요." });
  }
}

/**
 * The holder's page behind a manage link (docs/credentials.md, "Withdrawal"), mounted at MANAGE_PAGE_PATH: GET shows
 * what is shared, POST with the confirmation withdraws. Both are counted against the client address by the app's rate
 * limit, as every page is.
 */
export function holderPages(): Hono<PageEnv> {
  const app = new Hono<PageEnv>();
  const path = "/:token";
  // The console's headers: no framing, no caching, and a Referer (which would carry the token in the path) to this
  // origin only; `no-referrer` would make browsers send `Origin: null` on the form's post, hiding that it is ours.
  app.get(path, consolePageHeaders, async (c) => {
    try {
      return managePage(c, { credential: await openManageLink(c.env, tokenOf(c.req.param("token")), Date.now()) });
    } catch (err) {
      if (err instanceof ApiError) return managePage(c, { error: err });
      throw err;
    }
  });
  app.post(path, consolePageHeaders, async (c) => {
    let credential;
    try {
      const token = tokenOf(c.req.param("token"));
      assertSameSite(c);
      credential = await openManageLink(c.env, token, Date.now());
      const form = await c.req.parseBody().catch(() => ({}) as Record<string, unknown>);
      requireConfirmed(form, "철회하려면 확인란을 선택해 주세요.");
      return managePage(c, { withdrawn: await withdrawConsent(c.env, credential, hasActiveJob, Date.now()) });
    } catch (err) {
      if (err instanceof ApiError) return managePage(c, { credential, error: err });
      throw err;
    }
  });
  // A link a mail client cut short or ran on (no token, a trailing slash, more path) is a wrong link to the holder,
  // told on their page as a changed token is, not the API's not-found envelope.
  app.on(["GET", "POST"], "/*", consolePageHeaders, (c) => managePage(c, { error: invalidLink() }));
  return app;
}
