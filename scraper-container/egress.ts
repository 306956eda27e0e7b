import { ProxyAgent, fetch as undiciFetch } from "undici";

export interface EgressOptions {
  /** An HTTPS proxy in Korea (EGRESS_PROXY_URL); institutions there often refuse foreign addresses. */
  proxyUrl?: string;
  /** Providers whose traffic goes through it (EGRESS_PROVIDERS, comma-separated); unset, every provider of the protocol kind. */
  providers?: readonly string[];
}

/**
 * The transport of protocol adapters: straight out, or through the configured proxy for the providers it is
 * configured for. The proxy sees only a CONNECT to the institution's host; the login travels inside TLS to the
 * institution and nowhere else.
 */
export function egress(options: EgressOptions): (providerCode: string) => typeof fetch {
  if (!options.proxyUrl) return () => fetch;
  if (!URL.canParse(options.proxyUrl)) throw new Error("EGRESS_PROXY_URL must be an absolute URL");
  const agent = new ProxyAgent(options.proxyUrl);
  const proxied = ((input: string | URL, init?: RequestInit) => undiciFetch(input, { ...(init as object), dispatcher: agent })) as unknown as typeof fetch;
  return (providerCode) => (!options.providers?.length || options.providers.includes(providerCode) ? proxied : fetch);
}
