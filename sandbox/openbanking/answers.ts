import { randomUUID } from "node:crypto";
import type { IncomingMessage } from "node:http";
import { kstDigits } from "../../contracts/korean-time";

/** What the Open Banking replica (site.ts) answers with: KFTC's envelope and messages, its forms and its pages. */

type Json = Record<string, unknown>;

/** The answers the sources quote (docs/institutions/openbanking.md §4); texts of codes no capture shows are the code list's names. */
export const MESSAGES: Record<string, string> = {
  A0000: "",
  A0002: "참가기관 에러",
  A0004: "요청전문 포맷 에러",
  A0018: "거래내역 없음",
  A0020: "조회 가능시간 아님",
  A0304: "핀테크이용번호 정보 불일치",
  A0326: "거래고유번호(참가기관) 중복",
  A0334: "제3자정보제공동의 만료",
  O0001: "인증요청 거부 - 인증 파라미터 오류",
  O0002: "Access Token 거부",
  O0003: "Access Token 만료",
  O0009: "API plan 사용량 한도 초과",
  O0010: "허용되지 않은 http method 입니다.",
  O0011: "허용되지 않은 Scope 입니다.",
};

export const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function envelope(code: string, now: number, detail = ""): Json {
  return { api_tran_id: randomUUID(), api_tran_dtm: kstDigits(now), rsp_code: code, rsp_message: `${MESSAGES[code] ?? ""}${detail ? ` [${detail}]` : ""}` };
}

export async function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).byteLength;
    if (size > 64 * 1024) break;
    chunks.push(chunk as Buffer);
  }
  return new URLSearchParams(Buffer.concat(chunks).toString("utf8"));
}

export function page(title: string, body: string): string {
  return `<!doctype html><html lang="ko"><head><meta charset="utf-8"><title>${title}</title>
<style>body{font-family:sans-serif;margin:0;color:#222}header{background:#1f4e9c;color:#fff;padding:12px 24px}main{padding:24px;max-width:560px}
label{display:block;margin:8px 0}.error{color:#c00}.note{color:#666;font-size:13px}</style></head>
<body><header><strong>오픈뱅킹 샌드박스</strong> 사용자 인증 (복제본)</header><main>${body}
<p class="note">금융결제원 실제 인증 화면은 공개 문서가 없어, 이 화면은 샌드박스가 지어낸 것입니다.</p></main></body></html>`;
}

