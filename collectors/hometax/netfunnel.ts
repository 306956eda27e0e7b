import { ProviderFailure } from "../adapter";
import { NETFUNNEL } from "./hosts";
import type { PortalClient } from "./portal-client";

/** The ticket's whole result, `5002:200:key=…&nwait=…&…`, inside the queue's script answer (S2, S4). */
const RESULT = /NetFunnel\.gControl\.result='([^']+)'/;

/**
 * A NetFunnel ticket as the login page takes one (S2 `auth/idpw.py` `_get_netfunnel`, 2026): `opcode=5101` for
 * the queue `aid`, its result kept as cookie `NetFunnel_ID` on `.hometax.go.kr`. Like S2, any answer other than
 * `5002:200` (not queued, a wait, no answer at all) leaves the login to go on without the cookie; only the
 * portal's own stop or throttle, which the login would meet next, ends it here.
 */
export async function takeNetFunnelTicket(client: PortalClient, aid: string): Promise<void> {
  const query = `opcode=5101&nfid=0&prefix=NetFunnel.gRtype=5101;&sid=${client.options.netFunnelSid}&aid=${encodeURIComponent(aid)}&js=yes&${client.deps.now()}`;
  const url = `${NETFUNNEL}/ts.wseq?${query}`;
  let text: string;
  try {
    text = (await client.request(url)).text;
  } catch (err) {
    if (err instanceof ProviderFailure && (err.code === "PROVIDER_TIME_WINDOW" || err.code === "RATE_LIMITED")) throw err;
    return;
  }
  const result = RESULT.exec(text)?.[1];
  if (result?.startsWith("5002:200")) client.http.setCookie(url, `NetFunnel_ID=${result}; Domain=.hometax.go.kr; Path=/`);
}
