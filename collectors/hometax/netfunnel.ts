import { ProviderFailure } from "../adapter";
import { NETFUNNEL } from "./hosts";
import type { PortalClient } from "./portal-client";

/** The ticket's whole result, `5002:200:key=…&nwait=…&…`, inside the queue's script answer (S2, S4). */
const RESULT = /NetFunnel\.gControl\.result='([^']+)'/;
/** `netfunnel.js` waits a queue's `ttl` but never more than 5 s before asking again (K18). */
const MAX_TURN_SECONDS = 5;

/** One question to the queue: its result token, or null when the queue did not answer one (no answer, no script). */
async function ask(client: PortalClient, opcode: string, aid: string, key?: string): Promise<{ result: string; url: string } | null> {
  const query = `opcode=${opcode}${key ? `&key=${encodeURIComponent(key)}` : ""}&nfid=0&prefix=NetFunnel.gRtype=${opcode};&sid=${client.options.netFunnelSid}&aid=${encodeURIComponent(aid)}&js=yes&${client.deps.now()}`;
  const url = `${NETFUNNEL}/ts.wseq?${query}`;
  let text: string;
  try {
    text = (await client.request(url)).text;
  } catch (err) {
    if (err instanceof ProviderFailure && (err.code === "PROVIDER_TIME_WINDOW" || err.code === "RATE_LIMITED")) throw err;
    return null;
  }
  const result = RESULT.exec(text)?.[1];
  return result ? { result, url } : null;
}

/** `<type>:<code>:<k=v&…>` (K18). */
function parse(result: string): { code: string; params: URLSearchParams } {
  const [, code = "", ...rest] = result.split(":");
  return { code, params: new URLSearchParams(rest.join(":")) };
}

const keep = (client: PortalClient, url: string, result: string) => client.http.setCookie(url, `NetFunnel_ID=${result}; Domain=.hometax.go.kr; Path=/`);

/**
 * A NetFunnel ticket as the login page takes one (S2 `auth/idpw.py` `_get_netfunnel`, 2026): `opcode=5101` for
 * the queue `aid`, its result kept as cookie `NetFunnel_ID` on `.hometax.go.kr`. Like S2, any answer other than
 * `5002:200` (not queued, a wait, no answer at all) leaves the login to go on without the cookie; only the
 * portal's own stop or throttle, which the login would meet next, ends it here.
 */
export async function takeNetFunnelTicket(client: PortalClient, aid: string): Promise<void> {
  const answer = await ask(client, "5101", aid);
  if (answer?.result.startsWith("5002:200")) keep(client, answer.url, answer.result);
}

/**
 * Through a queue that may make the caller wait (the 간편인증 queues `simple_cert_<provider>`, K1; docs/institutions/
 * hometax.md "간편인증 (OACX)"): `200` passes with a key, `501` (not queued, K1) and `300` (bypass) pass without;
 * `201`/`202` wait `ttl` seconds (at most 5) and ask again with the key (`opcode=5002`, K18), for at most
 * `netFunnelWaitSeconds` in all; a block (`301`, `302`) or a wait past the bound is RATE_LIMITED. The key, when one
 * was given, is to be released (`releaseNetFunnelTicket`) once the queued call is made.
 */
export async function passNetFunnel(client: PortalClient, aid: string): Promise<string | null> {
  let answer = await ask(client, "5101", aid);
  let waited = 0;
  for (;;) {
    if (!answer) return null;
    const { code, params } = parse(answer.result);
    if (code === "200") {
      keep(client, answer.url, answer.result);
      return params.get("key");
    }
    if (code === "501" || code === "300") return null;
    const key = params.get("key");
    const wait = Math.min(MAX_TURN_SECONDS, Math.max(1, Number(params.get("ttl")) || 1));
    if ((code !== "201" && code !== "202") || !key) throw new ProviderFailure("RATE_LIMITED", `NetFunnel ${aid} answered ${code}`, client.options.netFunnelWaitSeconds);
    if (waited + wait > client.options.netFunnelWaitSeconds) {
      throw new ProviderFailure("RATE_LIMITED", `NetFunnel ${aid} still queued (nwait ${params.get("nwait")}) after ${waited} s`, client.options.netFunnelWaitSeconds);
    }
    await client.deps.sleep(wait * 1000);
    waited += wait;
    answer = await ask(client, "5002", aid, key);
  }
}

/** `opcode=5004`: the slot is handed back, as `netfunnel.js` always does after the queued call (K18); its answer changes nothing. */
export async function releaseNetFunnelTicket(client: PortalClient, aid: string, key: string): Promise<void> {
  await ask(client, "5004", aid, key);
}
