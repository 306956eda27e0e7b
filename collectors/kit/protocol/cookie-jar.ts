interface Cookie {
  name: string;
  value: string;
  /** Lower-case host (host-only) or domain without its leading dot. */
  domain: string;
  hostOnly: boolean;
  path: string;
  /** Epoch ms; null for a session cookie. */
  expiresAt: number | null;
}

/** The default path of RFC 6265 section 5.1.4: the request path up to its last slash. */
function defaultPath(requestPath: string): string {
  if (!requestPath.startsWith("/")) return "/";
  const last = requestPath.lastIndexOf("/");
  return last <= 0 ? "/" : requestPath.slice(0, last);
}

function domainMatches(host: string, cookie: Cookie): boolean {
  return cookie.hostOnly ? host === cookie.domain : host === cookie.domain || host.endsWith(`.${cookie.domain}`);
}

function pathMatches(requestPath: string, cookiePath: string): boolean {
  if (requestPath === cookiePath) return true;
  if (!requestPath.startsWith(cookiePath)) return false;
  return cookiePath.endsWith("/") || requestPath[cookiePath.length] === "/";
}

/**
 * A browser's cookie rules (RFC 6265) for the real hosts a protocol adapter calls, whatever address answers for
 * them: a cookie set for `.hometax.go.kr` by the portal goes to `teet.hometax.go.kr` too, a host-only one does
 * not, and an expired one is dropped. A cookie for a domain the answering host is not in is ignored, as browsers do.
 */
export class CookieJar {
  private cookies: Cookie[] = [];

  constructor(private readonly now: () => number = Date.now) {}

  /** Takes the Set-Cookie headers of an answer from `url` (the real URL). */
  store(url: URL, setCookies: readonly string[]): void {
    const host = url.hostname.toLowerCase();
    for (const header of setCookies) {
      const [pair = "", ...attributes] = header.split(";");
      const eq = pair.indexOf("=");
      if (eq <= 0) continue;
      const cookie: Cookie = { name: pair.slice(0, eq).trim(), value: pair.slice(eq + 1).trim(), domain: host, hostOnly: true, path: defaultPath(url.pathname), expiresAt: null };
      let maxAge: number | null = null;
      let expires: number | null = null;
      for (const attribute of attributes) {
        const at = attribute.indexOf("=");
        const key = (at < 0 ? attribute : attribute.slice(0, at)).trim().toLowerCase();
        const value = at < 0 ? "" : attribute.slice(at + 1).trim();
        if (key === "domain" && value) {
          cookie.domain = value.replace(/^\./, "").toLowerCase();
          cookie.hostOnly = false;
        } else if (key === "path" && value.startsWith("/")) cookie.path = value;
        else if (key === "max-age" && /^-?\d+$/.test(value)) maxAge = Number(value);
        else if (key === "expires" && !Number.isNaN(Date.parse(value))) expires = Date.parse(value);
      }
      if (!cookie.hostOnly && host !== cookie.domain && !host.endsWith(`.${cookie.domain}`)) continue;
      cookie.expiresAt = maxAge !== null ? this.now() + maxAge * 1000 : expires;
      this.cookies = this.cookies.filter((c) => !(c.name === cookie.name && c.domain === cookie.domain && c.path === cookie.path));
      if (cookie.expiresAt === null || cookie.expiresAt > this.now()) this.cookies.push(cookie);
    }
  }

  /** The Cookie header a browser would send to `url`, longest paths first; undefined when none applies. */
  header(url: URL): string | undefined {
    const host = url.hostname.toLowerCase();
    const now = this.now();
    this.cookies = this.cookies.filter((c) => c.expiresAt === null || c.expiresAt > now);
    const sent = this.cookies.filter((c) => domainMatches(host, c) && pathMatches(url.pathname, c.path)).sort((a, b) => b.path.length - a.path.length);
    return sent.length ? sent.map((c) => `${c.name}=${c.value}`).join("; ") : undefined;
  }
}
