/** Provider code to its real hosts' stand-ins: `{"hometax":{"hometax.go.kr":"http://127.0.0.1:9001"}}`. */
export type InstitutionBaseUrls = Readonly<Record<string, Readonly<Record<string, string>>>>;

const HOST = /^[a-z0-9-]+(\.[a-z0-9-]+)+$/;

/**
 * Reads INSTITUTION_BASE_URLS (docs/institutions/hometax.md, "Hosts are configuration"). A value the scraper
 * cannot use stops it at start with the reason, rather than sending a login to the wrong place later.
 */
export function parseInstitutionBaseUrls(json: string | undefined): InstitutionBaseUrls {
  if (!json?.trim()) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    throw new Error("INSTITUTION_BASE_URLS must be JSON: an object of provider codes, each an object of real host to base URL");
  }
  if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) throw new Error("INSTITUTION_BASE_URLS must be an object of provider codes");
  const out: Record<string, Record<string, string>> = {};
  for (const [provider, hosts] of Object.entries(parsed)) {
    if (!hosts || typeof hosts !== "object" || Array.isArray(hosts)) throw new Error(`INSTITUTION_BASE_URLS.${provider} must be an object of real host to base URL`);
    out[provider] = {};
    for (const [host, base] of Object.entries(hosts)) {
      if (!HOST.test(host)) throw new Error(`INSTITUTION_BASE_URLS.${provider}: "${host}" is not a host name`);
      if (typeof base !== "string" || !URL.canParse(base) || !/^https?:$/.test(new URL(base).protocol)) throw new Error(`INSTITUTION_BASE_URLS.${provider}.${host} must be an absolute http(s) URL`);
      out[provider][host] = base;
    }
  }
  return out;
}
