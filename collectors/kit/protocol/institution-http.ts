import { type InstitutionHttp, type InstitutionRequest, type InstitutionResponse, ProviderFailure } from "../../adapter";
import { CookieJar } from "./cookie-jar";

export interface InstitutionHttpOptions {
  /** The real hosts the adapter may call; a request to any other is refused before it is made. */
  hosts: readonly string[];
  /**
   * Real host to the base URL standing in for it (INSTITUTION_BASE_URLS, docs/institutions/hometax.md). When a
   * provider has stand-ins, every host it calls must have one: a test never reaches the real institution.
   */
  standIns?: Readonly<Record<string, string>>;
  /** The egress: `fetch`, or one bound to a proxy (scraper-container/egress.ts). */
  transport?: typeof fetch;
  timeoutMs?: number;
  now?: () => number;
}

const DEFAULT_TIMEOUT_MS = 30_000;
/** Far above any list page (50 rows); an answer past it is not one the adapter can trust. */
const MAX_BODY_BYTES = 8 * 1024 * 1024;
const MAX_REDIRECTS = 5;

/** What a desktop Chrome in Korea sends with every request; institutions answer other clients differently. */
const BROWSER_HEADERS = {
  "User-Agent": "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
  "Accept-Language": "ko-KR,ko;q=0.9,en-US;q=0.8,en;q=0.7",
};

async function readBounded(response: Response): Promise<Uint8Array> {
  if (!response.body) return new Uint8Array();
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_BODY_BYTES) {
      await reader.cancel();
      throw new ProviderFailure("PROVIDER_RESPONSE_MALFORMED", `answer over ${MAX_BODY_BYTES} bytes`);
    }
    chunks.push(value);
  }
  const whole = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    whole.set(chunk, at);
    at += chunk.byteLength;
  }
  return whole;
}

/**
 * The protocol kind's HTTP (collectors/adapter.ts InstitutionHttp): requests name the institution's real URLs; the
 * cookie jar keeps them per real host; stand-ins (a replica, in tests and `npm start`) answer in their place.
 * Redirects are followed here so each hop's cookies are kept, as a browser keeps them.
 */
export function institutionHttp(options: InstitutionHttpOptions): InstitutionHttp {
  const jar = new CookieJar(options.now);
  const transport = options.transport ?? fetch;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const hosts = new Set(options.hosts);
  const standIns = options.standIns && Object.keys(options.standIns).length > 0 ? options.standIns : null;

  function addressOf(real: URL): string {
    if (real.protocol !== "https:" || !hosts.has(real.hostname)) throw new ProviderFailure("PROVIDER_ERROR", `refused a request outside the institution: ${real.origin}`);
    if (!standIns) return real.toString();
    const base = standIns[real.hostname];
    if (!base) throw new ProviderFailure("PROVIDER_ERROR", `no stand-in for ${real.hostname}`);
    return `${base.replace(/\/+$/, "")}${real.pathname}${real.search}`;
  }

  return {
    async fetch(url: string, request: InstitutionRequest = {}): Promise<InstitutionResponse> {
      let real = new URL(url);
      let method = request.method ?? "GET";
      let body = request.body;
      for (let hop = 0; ; hop++) {
        const cookie = jar.header(real);
        let response: Response;
        let bytes: Uint8Array;
        try {
          response = await transport(addressOf(real), {
            method,
            headers: { ...BROWSER_HEADERS, ...request.headers, ...(cookie ? { Cookie: cookie } : {}) },
            body: method === "POST" ? body : undefined,
            redirect: "manual",
            signal: AbortSignal.timeout(timeoutMs),
          });
          jar.store(real, response.headers.getSetCookie());
          bytes = await readBounded(response);
        } catch (err) {
          if (err instanceof ProviderFailure) throw err;
          const timedOut = err instanceof Error && (err.name === "TimeoutError" || (err.cause as Error | undefined)?.name === "TimeoutError");
          throw new ProviderFailure(timedOut ? "TIMEOUT" : "PROVIDER_ERROR", `${method} ${real.origin}${real.pathname}: ${timedOut ? `no answer within ${timeoutMs} ms` : "unreachable"}`);
        }
        const location = response.headers.get("location");
        if (response.status >= 300 && response.status < 400 && location && hop < MAX_REDIRECTS) {
          real = realLocation(location, real, standIns);
          // 303, and 301/302 after a POST, become GETs without a body, as browsers do.
          if (response.status !== 307 && response.status !== 308) {
            method = "GET";
            body = undefined;
          }
          continue;
        }
        return { url: real.toString(), status: response.status, headers: response.headers, text: new TextDecoder().decode(bytes), bytes };
      }
    },
    setCookie(url: string, setCookie: string): void {
      jar.store(new URL(url), [setCookie]);
    },
  };
}

/** A redirect's target as a real URL: relative to the real URL, or a stand-in's own address mapped back to its real host. */
function realLocation(location: string, from: URL, standIns: Readonly<Record<string, string>> | null): URL {
  for (const [host, base] of Object.entries(standIns ?? {})) {
    const prefix = base.replace(/\/+$/, "");
    if (location.startsWith(`${prefix}/`)) return new URL(location.slice(prefix.length), `https://${host}`);
  }
  return new URL(location, from);
}
