import { z } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { AppEnv } from "../../env";

export const PAGE_ORIGINS_HEADER = "X-SVC-Page-Origins";

/** The opener and its frame ancestors, each `scheme://host[:port]` (at most 300 characters), space-separated. */
const MAX_PAGE_ORIGINS_LENGTH = 4096;

export const PageOriginsHeaderSchema = z.object({
  [PAGE_ORIGINS_HEADER]: z.string().max(MAX_PAGE_ORIGINS_LENGTH).optional().meta({
    description: "등록 화면을 연 페이지의 출처, 이어서 프레임 조상 출처들 (공백으로 구분). 모두 세션의 originAllowlist에 있어야 합니다. 없으면 출처가 없는 것으로 봅니다.",
    example: "https://partner.example",
  }),
});

/**
 * The origins the hosted UI vouches for, space-separated as in an RFC 6454
 * origin list: first the origin the browser reported for the opener's or
 * parent's handshake reply, then the frame ancestors the browser reports.
 * The session decides whether they are allowed; a missing header is no origins.
 */
export function pageOrigins(c: Context<AppEnv>): string[] {
  return (c.req.header(PAGE_ORIGINS_HEADER) ?? "").split(" ").filter((origin) => origin !== "");
}
