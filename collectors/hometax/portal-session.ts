import { type AdapterContext, ProviderFailure } from "../adapter";
import { portalSessionMap } from "./certificate-login";
import type { PortalClient } from "./portal-client";
import type { HometaxSession } from "./session";

const digitsOf = (value: unknown) => (typeof value === "string" ? value.replace(/\D/g, "") : "");

/**
 * What every login ends with, whichever way it went in: the portal's `sessionMap`, the user id the integrity
 * suffix is keyed by, and the business the portal says it logged in.
 */
export async function loggedIn(client: PortalClient, ctx: AdapterContext): Promise<HometaxSession> {
  const portal = await portalSessionMap(client);
  client.userId = typeof portal.userId === "string" ? portal.userId : "";
  // The portal names the business it logged in (a business login's txprDscmNo); another business's account would hand its documents to this workspace.
  const shown = digitsOf(portal.txprDscmNo);
  if (ctx.businessNumber && shown.length === 10 && shown !== ctx.businessNumber) throw new ProviderFailure("BUSINESS_NUMBER_MISMATCH", `the portal account is of business ${shown}`);
  return { client, portal, sites: new Map() };
}
