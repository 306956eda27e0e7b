import { ProviderFailure, type ProtocolAdapter } from "../adapter";
import type { AdapterCredential } from "../../contracts/task-unit";
import { accountRecords, targetsOf } from "./accounts";
import { processBankTranIds } from "./bank-tran-id";
import { OPENBANKING_API_HOSTS } from "./hosts";
import { DEFAULT_OPTIONS, type OpenBankingOptions } from "./options";
import { logIn, type OpenBankingDeps, type OpenBankingSession } from "./session";
import { transactionRecords } from "./transactions";

export const ACCOUNTS_SCHEMA = "bank.accounts.cb.v1";
export const TRANSACTIONS_SCHEMA = "bank.transactions.cb.v1";

/**
 * KFTC Open Banking (금융결제원 오픈뱅킹), spoken to over its own API (docs/institutions/openbanking.md): the
 * credential is a person's consent (tokens), `account/list` names the consented accounts, `balance/fin_num` and
 * `transaction_list/fin_num` read them. The worker's side of consent is in ./oauth.ts.
 */
export function openBankingAdapter(options: Partial<OpenBankingOptions> = {}, deps: Partial<OpenBankingDeps> = {}): ProtocolAdapter<OpenBankingSession, AdapterCredential> {
  const settled: OpenBankingOptions = { ...DEFAULT_OPTIONS, ...options };
  if (!Number.isInteger(settled.maxPeriodDays) || settled.maxPeriodDays < 1) throw new Error("openbanking maxPeriodDays is a whole number of days, at least 1");
  const wired: OpenBankingDeps = { ids: deps.ids ?? processBankTranIds, refresher: deps.refresher, now: deps.now ?? Date.now };
  return {
    kind: "protocol",
    providerCode: "openbanking",
    version: "openbanking/2026-11-27",
    hosts: [OPENBANKING_API_HOSTS[settled.environment]],
    login: (http, credential) => logIn(http, credential, settled, wired),
    async discoverTargets(session, schema) {
      if (schema !== ACCOUNTS_SCHEMA && schema !== TRANSACTIONS_SCHEMA) throw new ProviderFailure("PROVIDER_ERROR", `openbanking does not collect ${schema}`);
      return targetsOf(session);
    },
    async collect(session, unit) {
      if (unit.schema === ACCOUNTS_SCHEMA) return accountRecords(session, unit);
      if (unit.schema === TRANSACTIONS_SCHEMA) return transactionRecords(session, unit);
      throw new ProviderFailure("PROVIDER_ERROR", `openbanking does not collect ${unit.schema}`);
    },
  };
}

export const openBanking = openBankingAdapter();

export { authorizationUrl, exchangeCode, newState, READ_SCOPE, readCallback, refreshConsent, userMe } from "./oauth";
export type { AuthorizationRequest, CallbackResult, ConsentedAccount, OpenBankingGrant, OpenBankingKeys, UserMe } from "./oauth";
export { OPENBANKING_API_HOSTS, OPENBANKING_HOSTS, type OpenBankingEnvironment } from "./hosts";
export { bankTranIds, leasedProcessTag, processBankTranIds, randomProcessTag, useProcessTag, type BankTranIdSource } from "./bank-tran-id";
export { DEFAULT_OPTIONS, type OpenBankingOptions } from "./options";
export type { OpenBankingRefresher, OpenBankingSession } from "./session";
