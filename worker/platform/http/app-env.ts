import type { TimingVariables } from "hono/timing";

/** What every request carries, whatever surface serves it: its id (request-id.ts). */
export interface BaseVariables extends TimingVariables {
  requestId: string;
}

/**
 * The request context every surface extends with its own request data (api/context.ts, console/context.ts,
 * admin/context.ts); what the platform and web/ share takes this, and so any surface's context.
 */
export interface AppEnv {
  Bindings: Env;
  Variables: BaseVariables;
}

/** What pages have besides: the response's script nonce (web/page-headers.ts). */
export interface PageVariables extends BaseVariables {
  cspNonce: string;
}

export interface PageEnv {
  Bindings: Env;
  Variables: PageVariables;
}
