import { NTS_STATUS_HOSTS } from "../../collectors/nts-business-status/hosts";

/** The stand-ins of the replica served by a sandbox at `sandboxUrl`: INSTITUTION_BASE_URLS' `nts.business-status` entry. */
export function ntsBusinessStatusStandIns(sandboxUrl: string): Record<string, string> {
  return Object.fromEntries(NTS_STATUS_HOSTS.map((host) => [host, `${sandboxUrl.replace(/\/+$/, "")}/nts-business-status/${host}`]));
}
