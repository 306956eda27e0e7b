import type { Context } from "hono";
import type { Child } from "hono/jsx";
import type { AdminPagesEnv } from "../context";
import { ADMIN_API_PATH } from "../api/app";
import { type PageStatus, type WayBack, errorsAsPages } from "../../web/error-page";
import { AdminPage, SignedOutPage } from "./layout";

/** The operators' lists a detail page sits under; a workspace's or a job's page is reached from 찾기. */
const LISTS: Record<string, string> = { reports: "실패 보고서", outages: "기관 장애·점검", alerts: "운영 알림", audit: "감사 기록" };

/**
 * Where a stale operators' link sends them back to. The pages' middleware also sees /admin/api paths no API route
 * answered: those are the API's, and keep its envelope.
 */
function wayBack(c: Context<AdminPagesEnv>): WayBack | undefined {
  if (c.req.path === ADMIN_API_PATH || c.req.path.startsWith(`${ADMIN_API_PATH}/`)) return undefined;
  const section = c.req.path.split("/")[2] ?? "";
  const list = LISTS[section];
  return list ? { href: `/admin/${section}`, text: `${list} 목록으로 돌아가기` } : { href: "/admin", text: "찾기 페이지로 돌아가기" };
}

/** The operators' not-found page, with their menu once they are signed in. */
const layout = (c: Context<AdminPagesEnv>, body: Child, title: string, status: PageStatus) =>
  c.html(
    c.get("operator") ? (
      <AdminPage c={c} title={title}>
        {body}
      </AdminPage>
    ) : (
      <SignedOutPage title={title}>{body}</SignedOutPage>
    ),
    status,
  );

/** An operators' page path or row that is not there is a page, not the JSON envelope (web/error-page.tsx). */
export const adminNotFound = errorsAsPages<AdminPagesEnv>(layout, {
  404: { title: "찾을 수 없습니다", back: wayBack, why: () => "링크가 오래되었거나, 가리키던 것이 지워졌을 수 있습니다." },
});
