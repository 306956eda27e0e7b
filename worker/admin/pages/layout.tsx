import type { Context } from "hono";
import type { Child } from "hono/jsx";
import { verifiedForm } from "../../domain/console-sessions/csrf";
import { type AdminPagesEnv, operatorCsrfOf, operatorOf, operatorTokenOf } from "../context";
import { ApiError } from "../../platform/errors/api-error";
import { ReasonSchema } from "../api/shapes";
import { CsrfField, ErrorAlert, Page } from "../../web/layout";

const PRODUCT = "운영자 콘솔";

export function AdminPage(props: { c: Context<AdminPagesEnv>; title: string; error?: ApiError; children?: Child }) {
  const operator = operatorOf(props.c);
  return (
    <Page
      product={PRODUCT}
      title={props.title}
      nav={
        <nav aria-label="운영자 메뉴">
          <a href="/admin">찾기</a>
          <a href="/admin/outages">기관 장애·점검</a>
          <a href="/admin/alerts">운영 알림</a>
          <a href="/admin/reports">실패 보고서</a>
          <a href="/admin/audit">감사 기록</a>
          <span>
            {operator.email} ({operator.role})
          </span>
          <form method="post" action="/admin/sign-out" style="display:inline">
            <CsrfField token={operatorCsrfOf(props.c)} />
            <button type="submit" style="margin:0">로그아웃</button>
          </form>
        </nav>
      }
    >
      <ErrorAlert error={props.error} />
      {props.children}
    </Page>
  );
}

export const SignedOutPage = (props: { title: string; children: Child }) => (
  <Page product={PRODUCT} title={props.title}>
    {props.children}
  </Page>
);

/** The reason field every action form carries, bounded as the operator API bounds it. */
export const ReasonField = (props: { id: string }) => (
  <>
    <label for={props.id}>사유 (감사 기록에 남습니다)</label>
    <input id={props.id} name="reason" minlength={5} maxlength={500} required />
  </>
);

/** A posted action form of the signed-in operator: its token checked, its reason bounded like the API's (400 INVALID_PARAM_FORMAT). */
export async function actionForm(c: Context<AdminPagesEnv>): Promise<{ fields: Record<string, string>; reason: string }> {
  const fields = await verifiedForm(c, operatorTokenOf(c));
  const reason = ReasonSchema.safeParse(fields.reason ?? "");
  if (!reason.success) {
    throw new ApiError("INVALID_PARAM_FORMAT", { fieldErrors: [{ field: "reason", code: "INVALID_PARAM_FORMAT", message: "사유를 5자 이상 500자 이하로 적어 주세요." }] });
  }
  return { fields, reason: reason.data };
}

/** Runs a form's action; a refusal (a catalog error) is shown on a page of its own with the way back, at its status. */
export async function answerForm(c: Context<AdminPagesEnv>, back: string, act: () => Promise<void>): Promise<Response> {
  try {
    await act();
    return c.redirect(back, 303);
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    return c.html(
      <AdminPage c={c} title="작업을 하지 못했습니다" error={err}>
        <p>
          <a href={back}>돌아가기</a>
        </p>
      </AdminPage>,
      err.status as 400,
    );
  }
}
