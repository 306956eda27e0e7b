import type { BaseVariables } from "../platform/http/app-env";

/** What pages have besides: the response's script nonce (page-headers.ts). */
export interface PageVariables extends BaseVariables {
  cspNonce: string;
}

export interface PageEnv {
  Bindings: Env;
  Variables: PageVariables;
}
