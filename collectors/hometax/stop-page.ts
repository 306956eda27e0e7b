import type { InstitutionResponse } from "../adapter";

const NOTICE = /서비스 중지 시간/;

/**
 * The portal's service stop as it sends it (S1, S6): the browser is sent to `blockPage.html?msg=stop`, and a
 * page (HTML or plain text) carries the notice `요청하신 서비스는 현재 서비스 중지 시간 입니다`. A script or a JSON
 * answer that merely contains the words is not the stop page: the portal's own scripts hold their messages, and
 * a JSON refusal goes through the failure rules (failures.ts) like any other.
 */
export function isStopPage(answer: InstitutionResponse): boolean {
  const url = new URL(answer.url);
  if (/\/blockPage\.html$/i.test(url.pathname) && url.searchParams.get("msg") === "stop") return true;
  const type = answer.headers.get("content-type") ?? "";
  const page = /text\/(?:html|plain)/i.test(type) || (!type && /^\s*</.test(answer.text));
  return page && !/\.js$/i.test(url.pathname) && NOTICE.test(answer.text);
}
