import { randomBytes } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { cookie, redirect, sendHtml, sendJson } from "../http-kit";

/**
 * How the portal's front end answers before any application does: its NetFunnel queue, its redirects, its stop
 * page and its throttles (docs/institutions/hometax.md, "Pacing and throttling"). Each is a switch of the replica.
 */
export interface FrontDoorOptions {
  /** The first this many data calls (`wqAction.do` on teet and tecr) answer an overload, then they answer again. */
  overloadFirst?: number;
  /** How an overload is answered: `과부하제어` in `resultMsg` (S8; the whole text is the replica's), or HTTP 429 / 503 (S8). */
  overloadAs?: "text" | "http429" | "http503";
  /** Every data call blocked: HTTP 400 `Request Blocked` (S1) or `resultMsg` code `EIE2999` (S2's test value). */
  blocked?: "request-blocked" | "block-code";
  /** What NetFunnel answers a ticket request: `5002:200` with a key (S2, S4), or `5002:501`, not queued (S2). */
  netFunnel?: "ticket" | "not-queued";
  /**
   * What the 간편인증 queues (`aid=simple_cert_<provider>`, K1) answer: `5002:501` "Action is not exist" by default (K1,
   * facts §11.10), a ticket, a block (`5002:301`), or a wait (`5002:201`, K18) that passes after this many `opcode=5002` polls.
   */
  simpleAuthQueue?: "not-queued" | "ticket" | "blocked" | { busyPolls: number };
  /** `pubcLogin.do` refused with HTTP 400 without a ticket the queue issued (no source shows this; S2 saw 400s on bare form POSTs). */
  requireNetFunnel?: boolean;
  /** The apex sends every GET on to `www` with a 302 (no source shows such a redirect, sheet A6). */
  apexToWww?: boolean;
  /** The portal's entry page sends the browser to a host outside Hometax. */
  redirectOutside?: boolean;
  /** Service stop as a browser meets it (S6): every call is sent to `blockPage.html?msg=stop`, which shows the notice. */
  stopPage?: boolean;
}

const STOP_PAGE = "/html/comm/error/blockPage.html";
/** S6's test page: its title and its notice (S1's text). */
const STOP_HTML = '<!doctype html><html lang="ko"><head><title>서비스 중지</title></head><body>요청하신 서비스는 현재 서비스 중지 시간 입니다.</body></html>';
const OVERLOAD_TEXT = "과부하제어 중입니다. 60초 후 다시 시도해 주십시오.";

/** Each answer of the front end ends the request: the handler says so by returning true. */
function text(res: ServerResponse, status: number, body: string, type = "text/plain; charset=UTF-8"): true {
  res.writeHead(status, { "Content-Type": type, "Cache-Control": "no-store" });
  res.end(body);
  return true;
}
const html = (res: ServerResponse, status: number, body: string): true => (sendHtml(res, status, body), true);
const movedTo = (res: ServerResponse, location: string): true => (redirect(res, location), true);
/** A `resultMsg` refusal in the portal's envelope (§2m). */
const refused = (res: ServerResponse, msg: string, code: string): true => (sendJson(res, 200, { resultMsg: { detailMsg: "", msg, code, result: "F", exceptType: "APPLICATION", serviceTxId: `PTXPP_${Date.now()}`, detailLogYn: "N" } }), true);

/**
 * The front end's handler: answers and returns true when a switch (or the queue) answers the request, false to
 * hand it to the portal or a sub-site. `host` is the real host the request was made to.
 */
export function frontDoor(options: FrontDoorOptions) {
  const tickets = new Set<string>();
  let dataCalls = 0;
  /** Keys waiting in a 간편인증 queue, to the polls they have made. */
  const waiting = new Map<string, number>();

  /** The 간편인증 queues (facts §11.10): the answer to a ticket (5101), a waiting key's poll (5002), a release (5004). */
  function simpleAuthQueue(opcode: string | null, key: string | null, script: (type: string, result: string) => true): true {
    const mode = options.simpleAuthQueue ?? "not-queued";
    const pass = (k: string) => `5002:200:key=${k}&nwait=0&nnext=0&tps=0&ttl=0&ip=apct.hometax.go.kr&port=443`;
    if (opcode === "5004") return script("5004", '5004:200:msg="Success"');
    if (opcode === "5002" && key && waiting.has(key) && typeof mode === "object") {
      const polls = waiting.get(key)! + 1;
      if (polls < mode.busyPolls) {
        waiting.set(key, polls);
        return script("5002", `5002:201:key=${key}&nwait=${mode.busyPolls - polls}&ttl=1&ip=apct.hometax.go.kr&port=443`);
      }
      waiting.delete(key);
      return script("5002", pass(key));
    }
    if (opcode !== "5101") return script("5002", '5002:502:msg="already completed"');
    if (mode === "not-queued") return script("5002", '5002:501:msg="Action is not exist"');
    if (mode === "blocked") return script("5002", '5002:301:msg="blocked"');
    const fresh = randomBytes(128).toString("hex").toUpperCase();
    if (mode === "ticket") return script("5002", pass(fresh));
    waiting.set(fresh, 0);
    return script("5002", `5002:201:key=${fresh}&nwait=${mode.busyPolls}&ttl=1&ip=apct.hometax.go.kr&port=443`);
  }

  return (req: IncomingMessage, res: ServerResponse, host: string, path: string, url: URL): boolean => {
    if (host === "apct.hometax.go.kr") {
      const opcode = url.searchParams.get("opcode");
      const script = (type: string, result: string) => text(res, 200, `NetFunnel.gRtype=${type}NetFunnel.gControl.result='${result}'; NetFunnel.gControl._showResult();`, "text/javascript; charset=UTF-8");
      if (path === "/ts.wseq" && (url.searchParams.get("aid") ?? "").startsWith("simple_cert_")) return simpleAuthQueue(opcode, url.searchParams.get("key"), script);
      if (path !== "/ts.wseq" || opcode !== "5101") return text(res, 404, "Not Found");
      const key = randomBytes(16).toString("hex").toUpperCase();
      if (options.netFunnel !== "not-queued") tickets.add(key);
      const result = options.netFunnel === "not-queued" ? "5002:501:msg=\"not queued\"" : `5002:200:key=${key}&nwait=0&nnext=0&tps=0&ttl=0&ip=apct.hometax.go.kr&port=443`;
      return text(res, 200, `NetFunnel.gRtype=5101NetFunnel.gControl.result='${result}'; NetFunnel.gControl._showResult();`, "text/javascript; charset=UTF-8");
    }
    const portal = host === "hometax.go.kr" || host === "www.hometax.go.kr";
    if (options.stopPage) {
      return path === STOP_PAGE ? html(res, 200, STOP_HTML) : movedTo(res, `https://hometax.go.kr${STOP_PAGE}?msg=stop`);
    }
    if (options.redirectOutside && portal && path === "/") return movedTo(res, "https://example.com/");
    if (options.apexToWww && host === "hometax.go.kr" && req.method === "GET") return movedTo(res, `https://www.hometax.go.kr${path}${url.search}`);
    if (options.requireNetFunnel && portal && path === "/pubcLogin.do") {
      const ticket = /key=([0-9A-F]+)/.exec(decodeURIComponent(cookie(req, "NetFunnel_ID") ?? ""))?.[1];
      if (!ticket || !tickets.has(ticket)) return html(res, 400, "<html><body>Bad Request</body></html>");
    }
    const dataCall = !portal && path === "/wqAction.do";
    if (dataCall && options.blocked === "request-blocked") return html(res, 400, "<html><body><h1>Request Blocked</h1></body></html>");
    // The message is the replica's: S2's test gives the code only.
    if (dataCall && options.blocked === "block-code") return refused(res, "비정상적인 접근이 차단되었습니다.", "EIE2999");
    if (dataCall && dataCalls++ < (options.overloadFirst ?? 0)) {
      if (options.overloadAs === "http429") return text(res, 429, "Too Many Requests");
      if (options.overloadAs === "http503") return text(res, 503, "Service Unavailable");
      return refused(res, OVERLOAD_TEXT, "");
    }
    return false;
  };
}
