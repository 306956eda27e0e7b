import type { IncomingMessage, ServerResponse } from "node:http";
import { readJson, sendHtml, sendJson } from "../http-kit";
import type { PhoneMatch, PhoneRequest, PhoneSettings, SandboxPhone } from "./phone";

/** The page's address on the sandbox server, and its control calls' (server.ts mounts both). */
export const PHONE_PAGE = "/hometax-phone";
export const PHONE_CONTROL = "/_sandbox/hometax/phone";

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
/** 홍*동, 김*: what a phone's lock screen would show of a name. */
const masked = (name: string) => (name.length <= 2 ? `${name[0]}*` : `${name[0]}${"*".repeat(name.length - 2)}${name[name.length - 1]}`);

function card(phone: SandboxPhone, r: PhoneRequest): string {
  const left = phone.secondsLeft(r);
  const button = (action: string, label: string, colour: string) =>
    `<form method="post" action="${PHONE_PAGE}/${action}" style="display:inline"><input type="hidden" name="cxId" value="${escape(r.cxId)}"><button style="background:${colour};color:#fff;border:0;padding:10px 24px;font-size:16px;border-radius:6px">${label}</button></form>`;
  return `<li style="list-style:none;border:1px solid #ccd;border-radius:12px;padding:16px;margin:12px 0">
<p><strong>${escape(r.providerName)}</strong> · 국세청 홈택스 간편인증 요청</p>
<p>${escape(masked(r.person.name))} 님, 홈택스 로그인을 승인하시겠습니까?</p>
<p>남은 시간 <strong data-left="${left}">${Math.floor(left / 60)}분 ${left % 60}초</strong></p>
${button("approve", "승인", "#0b3d91")} ${button("deny", "거부", "#c00")}</li>`;
}

/** The demo page: the phone's standing requests, refreshed every few seconds, each with 승인 and 거부. */
function page(phone: SandboxPhone): string {
  const standing = phone.standing();
  const list = standing.length ? `<ul style="padding:0">${standing.map((r) => card(phone, r)).join("")}</ul>` : "<p>기다리는 인증 요청이 없습니다. 홈택스 간편인증을 요청하면 여기에 나타납니다.</p>";
  return `<!doctype html>
<html lang="ko"><head><meta charset="utf-8"><meta http-equiv="refresh" content="3"><title>샌드박스 휴대폰 · 간편인증</title></head>
<body style="font-family:sans-serif;max-width:420px;margin:24px auto;color:#222"><h1 style="font-size:20px">샌드박스 휴대폰</h1>
<p style="color:#666">샌드박스 홈택스의 간편인증 요청을 실제 앱 대신 승인하거나 거부합니다. 실제 휴대폰에는 아무것도 가지 않습니다.</p>${list}</body></html>`;
}

async function formOf(req: IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return new URLSearchParams(Buffer.concat(chunks).toString("utf8").slice(0, 4096));
}

/** `GET /hometax-phone`, and its buttons' `POST /hometax-phone/approve|deny` (form `cxId`), which come back to the page. */
export function phonePage(phone: SandboxPhone) {
  return async (req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> => {
    const action = /^\/hometax-phone\/(approve|deny)$/.exec(url.pathname)?.[1];
    if (req.method === "POST" && action) {
      const cxId = (await formOf(req)).get("cxId") ?? "";
      phone.answer({ cxId }, action === "approve" ? "approved" : "denied");
      res.writeHead(303, { Location: PHONE_PAGE });
      res.end();
      return;
    }
    if (req.method === "GET" && url.pathname === PHONE_PAGE) return sendHtml(res, 200, page(phone));
    sendHtml(res, 404, "<p>없는 페이지입니다.</p>");
  };
}

const text = (value: unknown) => (typeof value === "string" && value.length <= 64 ? value : undefined);
const view = (phone: SandboxPhone, r: PhoneRequest) => ({ cxId: r.cxId, provider: r.provider, name: r.person.name, phone: r.person.phone, secondsLeft: phone.secondsLeft(r), polls: r.polls });

/**
 * The tests' control calls: `GET /_sandbox/hometax/phone` lists the standing requests; `POST …/approve` and
 * `…/deny` with `{cxId?, name?, phone?}` answer every standing request matched (`{answered: n}`); `PUT …/settings`
 * with `{approveAfterPolls?, expirySeconds?, denial?}` changes how the phone answers from then on; `POST …/logout`
 * with `{businessNumber}` ends that login's portal sessions, as the portal's idle end would (`{ended: n}`).
 */
export function phoneControl(phone: SandboxPhone, logOut: (businessNumber: string) => number) {
  return async (req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> => {
    const path = url.pathname.slice(PHONE_CONTROL.length);
    if (!url.pathname.startsWith(PHONE_CONTROL)) return sendJson(res, 404, { message: "없는 경로입니다." });
    if (req.method === "GET" && path === "") return sendJson(res, 200, { items: phone.standing().map((r) => view(phone, r)), settings: phone.settings });
    if (req.method === "POST" && (path === "/approve" || path === "/deny")) {
      const body = await readJson(req);
      const match: PhoneMatch = { cxId: text(body.cxId), name: text(body.name), phone: text(body.phone) };
      if (!match.cxId && !match.name && !match.phone) return sendJson(res, 400, { message: "cxId, name 또는 phone 중 하나가 필요합니다." });
      return sendJson(res, 200, { answered: phone.answer(match, path === "/approve" ? "approved" : "denied") });
    }
    if (req.method === "POST" && path === "/logout") {
      const businessNumber = text((await readJson(req)).businessNumber);
      if (!businessNumber || !/^\d{10}$/.test(businessNumber)) return sendJson(res, 400, { message: "businessNumber(10자리)가 필요합니다." });
      return sendJson(res, 200, { ended: logOut(businessNumber) });
    }
    if (req.method === "PUT" && path === "/settings") {
      const body = await readJson(req);
      const settings: PhoneSettings = {};
      const after = body.approveAfterPolls;
      if (after !== undefined) {
        if (after !== null && !(Number.isInteger(after) && (after as number) >= 1 && (after as number) <= 1000)) return sendJson(res, 400, { message: "approveAfterPolls는 1..1000 또는 null이어야 합니다." });
        settings.approveAfterPolls = after as number | null;
      }
      if (body.expirySeconds !== undefined) {
        const seconds = body.expirySeconds;
        if (!(Number.isInteger(seconds) && (seconds as number) >= 0 && (seconds as number) <= 3600)) return sendJson(res, 400, { message: "expirySeconds는 0..3600이어야 합니다." });
        settings.expirySeconds = seconds as number;
      }
      if (body.denial !== undefined) {
        const denial = body.denial as Record<string, unknown> | null;
        if (!denial || !text(denial.resultCode) || !text(denial.oacxCode)) return sendJson(res, 400, { message: "denial은 {resultCode, oacxCode}여야 합니다." });
        settings.denial = { resultCode: denial.resultCode as string, oacxCode: denial.oacxCode as string };
      }
      phone.configure(settings);
      return sendJson(res, 200, { settings: phone.settings });
    }
    sendJson(res, 404, { message: "없는 경로입니다." });
  };
}
