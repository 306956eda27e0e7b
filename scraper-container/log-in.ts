import { type AdapterContext, type AdapterCredential, type HolderApproval, ProviderFailure, type ProtocolAdapter, type InstitutionHttp, type SimpleAuthLogin } from "../collectors/adapter";
import { APPROVAL_WAIT_MS, APPROVED_LOGIN_KEEP_MS } from "../contracts/scraper-protocol";
import { institutionHttp } from "../collectors/kit/protocol/institution-http";
import type { Institution } from "../collectors/registry";
import type { BrowserPool } from "./browser-pool";
import { reportingUnreadable } from "../collectors/kit/page-report";
import type { LoggedIn } from "./sessions";

export interface LogInDeps {
  pool: BrowserPool;
  /** How a protocol adapter's requests leave this process (scraper-container/egress.ts). */
  egressFor(providerCode: string): typeof fetch;
}

/** A call on a session whose holder has not approved its login yet: the server answers 202 with what waits. */
export class AwaitingHolder extends Error {
  constructor(readonly approval: HolderApproval) {
    super("awaiting the holder's approval");
    this.name = "AwaitingHolder";
  }
}

/**
 * A 간편인증 login: the app is asked now and the session answers at once, logged in to nothing yet; its first
 * targets or collect call waits up to APPROVAL_WAIT_MS for the approval and, still without one, is AwaitingHolder
 * (the worker asks again). After the approval every call runs on the portal session it gave.
 */
async function approvedLogIn(adapter: ProtocolAdapter, http: InstitutionHttp, credential: SimpleAuthLogin, ctx: AdapterContext): Promise<LoggedIn> {
  const { requestApproval, awaitApproval } = adapter;
  if (!requestApproval || !awaitApproval) throw new ProviderFailure("NO_VALID_CREDENTIAL", `${adapter.providerCode} takes no 간편인증 login`);
  const pending = await reportingUnreadable(adapter, null, "login", () => requestApproval.call(adapter, http, credential, ctx));
  let session: unknown = null;
  const approved = async () => {
    session ??= await reportingUnreadable(adapter, null, "login", () => awaitApproval.call(adapter, http, pending, APPROVAL_WAIT_MS, ctx));
    if (session === null) throw new AwaitingHolder(pending.approval);
    return session;
  };
  return {
    awaiting: pending.approval,
    idleMs: APPROVED_LOGIN_KEEP_MS,
    ready: async () => {
      await approved();
    },
    discoverTargets: async (schema) => {
      const logged = await approved();
      return reportingUnreadable(adapter, null, `targets ${schema}`, () => adapter.discoverTargets(logged, schema, ctx));
    },
    collect: async (unit) => {
      const logged = await approved();
      return reportingUnreadable(adapter, null, `collect ${unit.schema}`, () => adapter.collect(logged, unit, ctx));
    },
    close: async () => undefined,
  };
}

/**
 * Logs in with either kind of adapter and hands back the session's calls: a browser adapter in a fresh browser
 * context fenced to its site, a protocol adapter with a cookie jar of its own and no browser at all.
 */
export async function logIn(institution: Institution, credential: AdapterCredential, ctx: AdapterContext, deps: LogInDeps): Promise<LoggedIn> {
  if (institution.kind === "protocol") {
    const adapter = institution.adapter;
    const http = institutionHttp({ hosts: adapter.hosts, standIns: institution.standIns, transport: deps.egressFor(adapter.providerCode), timeoutMs: ctx.timeoutMs });
    if (credential.authMethod === "SIMPLE_AUTH") return approvedLogIn(adapter, http, credential, ctx);
    const session = await reportingUnreadable(adapter, null, "login", () => adapter.login(http, credential, ctx));
    return {
      ready: async () => undefined,
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
    ready: async () => undefined,
    discoverTargets: (schema) => reportingUnreadable(adapter, page, `targets ${schema}`, () => adapter.discoverTargets(page, schema, ctx)),
    collect: (unit) => reportingUnreadable(adapter, page, `collect ${unit.schema}`, () => adapter.collect(page, unit, ctx)),
    close: () => context.close(),
  };
}
