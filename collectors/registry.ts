import type { ProviderAdapter } from "./adapter";
import { sandboxBank } from "./sandbox-bank";
import { sandboxCard } from "./sandbox-card";
import { sandboxTaxPortal } from "./sandbox-taxportal";

/** An institution a scraper can log in to: its adapter and where its site is in this deployment. */
export interface Institution {
  adapter: ProviderAdapter;
  /** Root URL of the site, the adapter's `ctx.baseUrl`. */
  baseUrl: string;
  /** The only origins a session's browser may reach. */
  origins: string[];
}

/**
 * Each adapter with its site, resolved against the deployment's sandbox base
 * URL (an absolute URL would stay as it is). Site addresses live here and in
 * configuration only: a caller names a provider, never a URL.
 */
const SITES = new Map<string, { adapter: ProviderAdapter; site: string }>(
  [
    { adapter: sandboxBank, site: "/bank/" },
    { adapter: sandboxTaxPortal, site: "/taxportal/" },
    { adapter: sandboxCard, site: "/card/" },
  ].map((entry) => [entry.adapter.providerCode, entry]),
);

export function institutionFor(providerCode: string, sandboxBaseUrl: string): Institution | undefined {
  const entry = SITES.get(providerCode);
  if (!entry) return undefined;
  const baseUrl = new URL(entry.site, sandboxBaseUrl);
  return { adapter: entry.adapter, baseUrl: baseUrl.toString(), origins: [baseUrl.origin] };
}
