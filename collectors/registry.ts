import type { AdapterCredential, BrowserAdapter, ProtocolAdapter, RedactionRule } from "./adapter";
import { hometax, hometaxPacedAt } from "./hometax";
import { ntsBusinessStatus } from "./nts-business-status";
import { openBanking } from "./openbanking";
import type { InstitutionBaseUrls } from "./kit/protocol/stand-ins";
import { COMMON_REDACTION } from "./kit/redaction";
import { sandboxBank } from "./sandbox-bank";
import { sandboxCard } from "./sandbox-card";
import { sandboxTaxPortal } from "./sandbox-taxportal";

/** A site a browser logs in to, and where it is in this deployment. */
export interface BrowserInstitution {
  kind: "browser";
  adapter: BrowserAdapter;
  /** Root URL of the site, the adapter's `ctx.baseUrl`. */
  baseUrl: string;
  /** The only origins a session's browser may reach. */
  origins: string[];
}

/** An institution spoken to over its own protocol: its real hosts, and what stands in for them here, if anything. */
export interface ProtocolInstitution {
  kind: "protocol";
  adapter: ProtocolAdapter<unknown, AdapterCredential>;
  /** The institution's main real URL, the adapter's `ctx.baseUrl`. */
  baseUrl: string;
  /** Real host to base URL (INSTITUTION_BASE_URLS); absent, the real hosts are called. */
  standIns?: Readonly<Record<string, string>>;
}

export type Institution = BrowserInstitution | ProtocolInstitution;

/** Where this deployment finds institutions: the sandbox sites, and stand-ins for real hosts. */
export interface InstitutionSites {
  sandboxBaseUrl: string;
  institutionBaseUrls?: InstitutionBaseUrls;
  /**
   * The pace, ms between requests, Hometax keeps against its stand-ins (HOMETAX_PACE_MS): set by the test stacks (0)
   * and the local stack (a short one), never for the real portal. Absent, the options' 1 s pace holds everywhere.
   */
  hometaxPaceMs?: number;
}

/**
 * Each browser adapter with its sandbox site, resolved against the deployment's sandbox base URL. Site
 * addresses live here and in configuration only: a caller names a provider, never a URL.
 */
const BROWSER_SITES = new Map<string, { adapter: BrowserAdapter; site: string }>(
  [
    { adapter: sandboxBank, site: "/bank/" },
    { adapter: sandboxTaxPortal, site: "/taxportal/" },
    { adapter: sandboxCard, site: "/card/" },
  ].map((entry) => [entry.adapter.providerCode, entry]),
);

// Open Banking's login takes a consent (OpenBankingConsent), which the worker does not yet store as a LoginCredential.
// nts.business-status takes no workspace credential: the deployment's key (DeploymentKeyCredential, ctx.deploymentKey).
const PROTOCOLS = new Map<string, ProtocolAdapter<unknown, AdapterCredential>>([
  [hometax.providerCode, hometax as ProtocolAdapter<unknown, AdapterCredential>],
  [openBanking.providerCode, openBanking as ProtocolAdapter<unknown, AdapterCredential>],
  [ntsBusinessStatus.providerCode, ntsBusinessStatus as ProtocolAdapter<unknown, AdapterCredential>],
]);

/** A protocol adapter as the deployment asks it to run against stand-ins: Hometax at the pace it names, if it names one. */
function againstStandIns(providerCode: string, sites: InstitutionSites): ProtocolAdapter<unknown, AdapterCredential> | undefined {
  if (providerCode !== hometax.providerCode || sites.hometaxPaceMs === undefined) return undefined;
  return hometaxPacedAt(sites.hometaxPaceMs) as ProtocolAdapter<unknown, AdapterCredential>;
}

/** A browser adapter's site; undefined for a provider of the protocol kind (it needs the scraper, not a remote browser). */
export function browserInstitutionFor(providerCode: string, sandboxBaseUrl: string): BrowserInstitution | undefined {
  const entry = BROWSER_SITES.get(providerCode);
  if (!entry) return undefined;
  const baseUrl = new URL(entry.site, sandboxBaseUrl);
  return { kind: "browser", adapter: entry.adapter, baseUrl: baseUrl.toString(), origins: [baseUrl.origin] };
}

/**
 * What a provider's text must go through before a log line keeps it (collectors/kit/redaction.ts): the common rules and
 * the adapter's own, as its failure reports get them; the common ones for a provider without rules of its own.
 */
export function redactionFor(providerCode: string): readonly RedactionRule[] {
  return [...COMMON_REDACTION, ...(BROWSER_SITES.get(providerCode)?.adapter.redaction ?? [])];
}

export function institutionFor(providerCode: string, sites: InstitutionSites): Institution | undefined {
  const protocol = PROTOCOLS.get(providerCode);
  const standIns = sites.institutionBaseUrls?.[providerCode];
  if (protocol) return { kind: "protocol", adapter: (standIns && againstStandIns(providerCode, sites)) || protocol, baseUrl: `https://${protocol.hosts[0]}/`, standIns };
  return browserInstitutionFor(providerCode, sites.sandboxBaseUrl);
}
