import { type InstitutionBaseUrls, parseInstitutionBaseUrls } from "../collectors/kit/protocol/stand-ins";
import { hometaxStandIns } from "../sandbox/hometax/stand-ins";
import { ntsBusinessStatusStandIns } from "../sandbox/nts-business-status/stand-ins";
import { REPLICA_CLIENT } from "../sandbox/openbanking/ground-truth";
import { openBankingStandIns } from "../sandbox/openbanking/stand-ins";

/**
 * Where real institutions' hosts point on a local stack: each replica in the sandbox, unless this process's own
 * INSTITUTION_BASE_URLS names a provider (that provider's entry then replaces the replica's whole).
 */
export function localInstitutionBaseUrls(sandboxUrl: string, own = process.env.INSTITUTION_BASE_URLS): InstitutionBaseUrls {
  return {
    hometax: hometaxStandIns(sandboxUrl),
    "nts.business-status": ntsBusinessStatusStandIns(sandboxUrl),
    openbanking: openBankingStandIns(sandboxUrl),
    ...parseInstitutionBaseUrls(own),
  };
}

/**
 * The 이용기관 keys Open Banking runs with on a local stack: this process's OPENBANKING_CLIENT_ID, _SECRET and
 * _USE_CODE when all three are set (a developer's testbed keys, with INSTITUTION_BASE_URLS pointing elsewhere), else
 * the replica's own (docs/institutions/openbanking.md §11).
 */
export function localOpenBankingKeys(env: NodeJS.ProcessEnv = process.env): { OPENBANKING_CLIENT_ID: string; OPENBANKING_CLIENT_SECRET: string; OPENBANKING_CLIENT_USE_CODE: string } {
  const { OPENBANKING_CLIENT_ID: id, OPENBANKING_CLIENT_SECRET: secret, OPENBANKING_CLIENT_USE_CODE: useCode } = env;
  if (id && secret && useCode) return { OPENBANKING_CLIENT_ID: id, OPENBANKING_CLIENT_SECRET: secret, OPENBANKING_CLIENT_USE_CODE: useCode };
  return { OPENBANKING_CLIENT_ID: REPLICA_CLIENT.clientId, OPENBANKING_CLIENT_SECRET: REPLICA_CLIENT.clientSecret, OPENBANKING_CLIENT_USE_CODE: REPLICA_CLIENT.clientUseCode };
}
