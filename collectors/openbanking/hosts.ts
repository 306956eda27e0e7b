/**
 * KFTC Open Banking's hosts (docs/institutions/openbanking.md §2): production and the testbed answer the same
 * paths, the OAuth pages and token endpoint included. The authorization page a person's browser opens is on the
 * same host as the API (`/oauth/2.0/authorize`).
 */
export const OPENBANKING_API_HOSTS = {
  production: "openapi.openbanking.or.kr",
  testbed: "testapi.openbanking.or.kr",
} as const;

export type OpenBankingEnvironment = keyof typeof OPENBANKING_API_HOSTS;

/** Every real host the provider may reach, for stand-ins (INSTITUTION_BASE_URLS) that cover either environment. */
export const OPENBANKING_HOSTS: readonly string[] = Object.values(OPENBANKING_API_HOSTS);

export function apiOrigin(environment: OpenBankingEnvironment): string {
  return `https://${OPENBANKING_API_HOSTS[environment]}`;
}

export const PATHS = {
  authorize: "/oauth/2.0/authorize",
  token: "/oauth/2.0/token",
  userMe: "/v2.0/user/me",
  accountList: "/v2.0/account/list",
  balance: "/v2.0/account/balance/fin_num",
  transactions: "/v2.0/account/transaction_list/fin_num",
} as const;
