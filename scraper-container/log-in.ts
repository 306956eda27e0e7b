import { type AdapterContext, type AdapterCredential, ProviderFailure } from "../collectors/adapter";
import { institutionHttp } from "../collectors/protocol/institution-http";
import type { Institution } from "../collectors/registry";
import type { BrowserPool } from "./browser-pool";
import { reportingUnreadable } from "../collectors/page-report";
import type { LoggedIn } from "./sessions";

export interface LogInDeps {
  pool: BrowserPool;
  /** How a protocol adapter's requests leave this process (scraper-container/egress.ts). */
  egressFor(providerCode: string): typeof fetch;
}

/**
 * Logs in with either kind of adapter and hands back the session's calls: a browser adapter in a fresh browser
 * context fenced to its site, a protocol adapter with a cookie jar of its own and no browser at all.
 */
export async function logIn(institution: Institution, credential: AdapterCredential, ctx: AdapterContext, deps: LogInDeps): Promise<LoggedIn> {
  if (institution.kind === "protocol") {
    const adapter = institution.adapter;
    const http = institutionHttp({ hosts: adapter.hosts, standIns: institution.standIns, transport: deps.egressFor(adapter.providerCode), timeoutMs: ctx.timeoutMs });
    const session = await reportingUnreadable(adapter, null, "login", () => adapter.login(http, credential, ctx));
    return {
      discoverTargets: (schema) => reportingUnreadable(adapter, null, `targets ${schema}`, () => adapter.discoverTargets(session, schema, ctx)),
      collect: (unit) => reportingUnreadable(adapter, null, `collect ${unit.schema}`, () => adapter.collect(session, unit, ctx)),
      close: async () => undefined,
    };
  }
  const adapter = institution.adapter;
  // The deployment's key is for protocol adapters only; no browser adapter takes one.
  if (credential.authMethod === "DEPLOYMENT_KEY") throw new ProviderFailure("INTERNAL_ERROR", `${adapter.providerCode} takes a workspace credential`);
  const { context, page } = await deps.pool.newContext(institution.origins);
  try {
    await reportingUnreadable(adapter, page, "login", () => adapter.login(page, credential, ctx));
  } catch (err) {
    await context.close().catch(() => undefined);
    throw err;
  }
  return {
    discoverTargets: (schema) => reportingUnreadable(adapter, page, `targets ${schema}`, () => adapter.discoverTargets(page, schema, ctx)),
    collect: (unit) => reportingUnreadable(adapter, page, `collect ${unit.schema}`, () => adapter.collect(page, unit, ctx)),
    close: () => context.close(),
  };
}
