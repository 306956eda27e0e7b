import type { MemberRole } from "../domain/workspaces/tables";
import type { ConsoleUser } from "./context";
import { type Action, roleMay } from "../domain/workspaces/roles";
import { CsrfField } from "../web/layout";
import { WORKSPACES_PAGE } from "./workspaces";

type Link = { path: string; text: string; action?: Action };

/** The everyday pages, always in the bar; the rest in two groups, so a phone's header is one line until opened. */
const MAIN: Link[] = [
  { path: "overview", text: "개요" },
  { path: "jobs", text: "수집 작업" },
  { path: "schedules", text: "수집 일정" },
  { path: "credentials", text: "자격 증명" },
];
const GROUPS: { name: string; links: Link[] }[] = [
  {
    name: "개발자",
    links: [
      { path: "keys", text: "API 키", action: "keys.manage" },
      { path: "webhooks", text: "웹훅", action: "webhooks.manage" },
      { path: "logs", text: "API 요청 기록", action: "logs.read" },
      { path: "delivery-routes", text: "결과 전달", action: "deliveries.manage" },
    ],
  },
  {
    name: "설정",
    links: [
      { path: "members", text: "구성원", action: "members.manage" },
      { path: "billing", text: "결제", action: "billing.manage" },
      { path: "results-retention", text: "결과 보관", action: "results.retention" },
    ],
  },
];

/** The workspace's page at `path` (a segment after /console/w/<id>/), as the menu names it. */
export const workspacePageOf = (path: string | undefined): Link | undefined => [...MAIN, ...GROUPS.flatMap((group) => group.links)].find((link) => link.path === path);

/**
 * The signed-in header: the workspace's pages the user's role may open, grouped, and the account's actions. Without
 * script: the whole menu is one <details> a phone opens (layout.tsx shows it open from 48rem), and each group a
 * <details> of the same `name`, so opening one closes the other.
 */
export function WorkspaceNav(props: { workspaceId: string; user: ConsoleUser; role: MemberRole }) {
  const base = `/console/w/${props.workspaceId}`;
  const groups = GROUPS.map((group) => ({ ...group, links: group.links.filter((link) => !link.action || roleMay(props.role, link.action)) })).filter((group) => group.links.length > 0);
  return (
    <nav aria-label="콘솔 메뉴" class="menu">
      <details class="menu-all">
        <summary class="menu-toggle">메뉴</summary>
        <ul class="menu-bar">
          {MAIN.map((link) => (
            <li>
              <a href={`${base}/${link.path}`}>{link.text}</a>
            </li>
          ))}
          {groups.map((group) => (
            <li class="menu-group">
              <details name="console-menu">
                <summary>{group.name}</summary>
                <ul>
                  {group.links.map((link) => (
                    <li>
                      <a href={`${base}/${link.path}`}>{link.text}</a>
                    </li>
                  ))}
                </ul>
              </details>
            </li>
          ))}
          <li class="menu-group menu-account">
            <details name="console-menu">
              <summary>{props.user.email}</summary>
              <ul>
                <li>
                  <a href={WORKSPACES_PAGE}>워크스페이스 전환</a>
                </li>
                <li>
                  <a href="/console/device">명령줄 승인</a>
                </li>
                <li>
                  <form method="post" action="/console/sign-out">
                    <CsrfField token={props.user.csrf} />
                    <button type="submit">로그아웃</button>
                  </form>
                </li>
                <li>
                  <form method="post" action="/console/sign-out-everywhere">
                    <CsrfField token={props.user.csrf} />
                    <button type="submit">모든 기기에서 로그아웃</button>
                  </form>
                </li>
              </ul>
            </details>
          </li>
        </ul>
      </details>
    </nav>
  );
}
