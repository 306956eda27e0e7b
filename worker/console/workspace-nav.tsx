import type { MemberRole } from "../domain/users/tables";
import type { ConsoleUser } from "./context";
import { roleMay } from "../domain/workspaces/roles";
import { CsrfField } from "../web/layout";
import { WORKSPACES_PAGE } from "./workspaces";

/** The signed-in header: the workspace's pages the user's role may open, and sign-out. */
export function WorkspaceNav(props: { workspaceId: string; user: ConsoleUser; role: MemberRole }) {
  const base = `/console/w/${props.workspaceId}`;
  return (
    <nav aria-label="콘솔 메뉴">
      <a href={`${base}/overview`}>개요</a>
      <a href={`${base}/jobs`}>수집 작업</a>
      <a href={`${base}/schedules`}>수집 일정</a>
      <a href={`${base}/credentials`}>자격 증명</a>
      {roleMay(props.role, "keys.manage") && <a href={`${base}/keys`}>API 키</a>}
      {roleMay(props.role, "logs.read") && <a href={`${base}/logs`}>API 요청 기록</a>}
      {roleMay(props.role, "webhooks.manage") && <a href={`${base}/webhooks`}>웹훅</a>}
      {roleMay(props.role, "deliveries.manage") && <a href={`${base}/delivery-routes`}>결과 전달</a>}
      {roleMay(props.role, "results.retention") && <a href={`${base}/results-retention`}>결과 보관</a>}
      {roleMay(props.role, "members.manage") && <a href={`${base}/members`}>구성원</a>}
      {roleMay(props.role, "billing.manage") && <a href={`${base}/billing`}>결제</a>}
      <a href={WORKSPACES_PAGE}>워크스페이스 전환</a>
      <a href="/console/device">명령줄 승인</a>
      <span>{props.user.email}</span>
      <form method="post" action="/console/sign-out" style="display:inline">
        <CsrfField token={props.user.csrf} />
        <button type="submit" style="margin:0;padding:.25rem .5rem">로그아웃</button>
      </form>
      <form method="post" action="/console/sign-out-everywhere" style="display:inline">
        <CsrfField token={props.user.csrf} />
        <button type="submit" style="margin:0;padding:.25rem .5rem">모든 기기에서 로그아웃</button>
      </form>
    </nav>
  );
}
