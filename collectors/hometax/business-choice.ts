import { ProviderFailure } from "../adapter";
import type { Json } from "./portal-client";
import { type HometaxSession, subSite } from "./session";

/**
 * The business a sub-site session queries for, by the rule of Hometax's own page script (`fn_getSessionTin`,
 * `fn_haboTitleChgFortxfrBmanLgn` in `common_teet.xml`, as S3 `invoices.py` applies it; sheet A5): `tin`, unless
 * the login was not a transferred-business login and the session either has no business view (`haboInqrStat` N)
 * or converted to another business (`tin` ≠ `cnvrTin`); then `cnvrTin`. A login that switched business, or holds
 * several registrations, would otherwise list its personal tin and silently get zero rows.
 */
export function businessTin(sessionMap: Json): string {
  const own = sessionMap.tin;
  const converted = sessionMap.txfrBmanLgnYn !== "Y" && (sessionMap.haboInqrStat === "N" || own !== sessionMap.cnvrTin);
  const tin = converted ? sessionMap.cnvrTin : own;
  // An individual's login (userClsfCd 01) still on its own tin has no business chosen (S3 "BUSINESS_REQUIRED").
  if (typeof tin !== "string" || tin.trim() === "" || (sessionMap.userClsfCd === "01" && tin === own)) {
    throw new ProviderFailure("BUSINESS_NUMBER_MISMATCH", "the Hometax login has no business chosen (personal tin, or no cnvrTin)");
  }
  return tin.trim();
}

/** A sub-site's session and the business tin its lists are asked for. */
export async function siteBusiness(session: HometaxSession, site: string, screenId: string): Promise<{ sessionMap: Json; tin: string }> {
  const sessionMap = await subSite(session, site, screenId);
  return { sessionMap, tin: businessTin(sessionMap) };
}
