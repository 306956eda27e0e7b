import { HOMETAX_HOSTS } from "../../collectors/hometax/hosts";

/** The stand-ins of the replica served by a sandbox at `sandboxUrl`: INSTITUTION_BASE_URLS' `hometax` entry. */
export function hometaxStandIns(sandboxUrl: string): Record<string, string> {
  return Object.fromEntries(HOMETAX_HOSTS.map((host) => [host, `${sandboxUrl.replace(/\/+$/, "")}/hometax/${host}`]));
}
