import { OPENBANKING_HOSTS } from "../../collectors/openbanking/hosts";

/** The stand-ins of the replica served by a sandbox at `sandboxUrl`: INSTITUTION_BASE_URLS' `openbanking` entry (both hosts). */
export function openBankingStandIns(sandboxUrl: string): Record<string, string> {
  return Object.fromEntries(OPENBANKING_HOSTS.map((host) => [host, `${sandboxUrl.replace(/\/+$/, "")}/openbanking/${host}`]));
}
