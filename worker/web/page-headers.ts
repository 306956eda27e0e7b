import type { MiddlewareHandler } from "hono";
import type { PageEnv } from "../platform/http/app-env";
import { randomToken } from "../platform/lib/crypto";

/**
 * Scripts run only with this response's nonce (an injected `<script>` or handler attribute has none); the hosted
 * registration page is framed from our own origin; forms post only here.
 */
export const consolePolicy = (nonce: string) =>
  [
    "default-src 'self'",
    `script-src 'nonce-${nonce}'`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "connect-src 'self'",
    "frame-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");

/** The security headers of every console response, with a fresh script nonce per response (`cspNonce`). */
export const consolePageHeaders: MiddlewareHandler<PageEnv> = async (c, next) => {
  const nonce = randomToken(16);
  c.set("cspNonce", nonce);
  await next();
  // No other site may frame a console page (a framed approve button is a clickjacking target), and pages that show
  // a new key or a session's CSRF token are kept out of caches.
  c.header("Content-Security-Policy", consolePolicy(nonce));
  c.header("X-Frame-Options", "DENY");
  c.header("Cache-Control", "no-store");
  c.header("X-Content-Type-Options", "nosniff");
  // Console paths carry workspace and job ids: other sites are not told them.
  c.header("Referrer-Policy", "same-origin");
  // Served over https (every deployment): browsers keep to https from then on. Plain-http local runs get none.
  if (new URL(c.req.url).protocol === "https:") c.header("Strict-Transport-Security", "max-age=31536000; includeSubDomains");
};
