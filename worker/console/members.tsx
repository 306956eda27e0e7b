import { verifiedForm } from "../domain/console-sessions/csrf";
import { type ConsoleContext, consoleUserOf, workspaceRoleOf } from "./context";
import { pendingInvitations, revokeInvitation } from "../domain/users/invitations";
import { changeRole, handOver, listMembers, removeMember } from "../domain/users/members";
import { sendInvitation } from "../domain/users/send-invitation";
import { CreateInvitationBodySchema } from "../domain/users/inputs";
import { UpdateMemberBodySchema } from "../domain/users/inputs";
import { asApiBody, type FormOutcome, onPage } from "../web/form-outcome";
import { kst } from "../web/kst";
import { ActionButton, CsrfField, DataTable, Outcome, Page } from "../web/layout";
import { WorkspaceNav } from "./workspace-nav";

const ROLE_LABELS = { owner: "소유자", member: "구성원" } as const;

const RoleSelect = (props: { id: string; selected: "owner" | "member" }) => (
  <select id={props.id} name="role">
    {(["member", "owner"] as const).map((role) => (
      <option value={role} selected={role === props.selected}>
        {ROLE_LABELS[role]}
      </option>
    ))}
  </select>
);

async function membersPage(c: ConsoleContext<"workspaceId">, shown: FormOutcome = {}) {
  const user = consoleUserOf(c);
  const workspaceId = c.req.valid("param").workspaceId;
  const base = `/console/w/${workspaceId}/members`;
  const [members, invitations] = await Promise.all([listMembers(c.env.DB, workspaceId), pendingInvitations(c.env.DB, workspaceId)]);
  return c.html(
    <Page title="구성원" nav={<WorkspaceNav workspaceId={workspaceId} user={user} role={workspaceRoleOf(c)} />}>
      <Outcome shown={shown} />
      <p>소유자는 구성원, API 키, 자격 증명, 웹훅, 결과 전달과 결제를 관리합니다. 구성원은 수집을 실행·조회하고 결과를 내려받습니다.</p>
      <DataTable columns={["이메일", "역할", "참여", { hidden: "관리" }]}>
        {members.map((member) => (
          <tr data-member-email={member.email}>
            <td>
              {member.email}
              {member.userId === user.userId ? " (나)" : ""}
            </td>
            <td data-role={member.role}>
              <form method="post" action={`${base}/${member.userId}/role`}>
                <CsrfField token={user.csrf} />
                <label for={`role-${member.userId}`} class="sr-only">{`${member.email}의 역할`}</label>
                <RoleSelect id={`role-${member.userId}`} selected={member.role} />
                <button type="submit">역할 변경</button>
              </form>
            </td>
            <td>{kst(member.joinedAt)}</td>
            <td>
              {member.userId !== user.userId && (
                <>
                  <ActionButton action={`${base}/${member.userId}/hand-over`} csrf={user.csrf} label={`${member.email}에게 소유권 넘기기`} text="소유권 넘기기" />
                  <ActionButton action={`${base}/${member.userId}/remove`} csrf={user.csrf} label={`${member.email} 내보내기`} text="내보내기" danger />
                </>
              )}
            </td>
          </tr>
        ))}
      </DataTable>
      <h2>초대하기</h2>
      <form method="post" action={`${base}/invite`}>
        <CsrfField token={user.csrf} />
        <label for="invite-email">이메일</label>
        <input id="invite-email" name="email" type="email" required maxlength={254} autocomplete="off" />
        <label for="invite-role">역할</label>
        <RoleSelect id="invite-role" selected="member" />
        <button type="submit">초대 메일 보내기</button>
      </form>
      <h2>대기 중인 초대</h2>
      <DataTable columns={["이메일", "역할", "만료", { hidden: "취소" }]}>
        {invitations.map((invitation) => (
          <tr data-invitation-email={invitation.email}>
            <td>{invitation.email}</td>
            <td>{ROLE_LABELS[invitation.role]}</td>
            <td>{kst(invitation.expiresAt)}</td>
            <td>
              <ActionButton action={`${base}/invitations/${invitation.id}/revoke`} csrf={user.csrf} label={`${invitation.email} 초대 취소`} text="취소" danger />
            </td>
          </tr>
        ))}
      </DataTable>
      {invitations.length === 0 && <p>대기 중인 초대가 없습니다.</p>}
    </Page>,
    shown.error ? (shown.error.status as 400) : (shown.status ?? 200),
  );
}

export const showMembers = (c: ConsoleContext<"workspaceId">) => membersPage(c);

/** Runs one of the page's forms, checked against the session's CSRF token first. */
const memberForm = <K extends string = never>(act: (c: ConsoleContext<"workspaceId" | K>, fields: Record<string, string>) => Promise<string>, status?: 201) => async (c: ConsoleContext<"workspaceId" | K>) => {
  const fields = await verifiedForm(c, consoleUserOf(c).sessionToken);
  return onPage(c, membersPage, () => act(c, fields), status);
};

export const inviteForm = memberForm(async (c, fields) => {
  const body = asApiBody(CreateInvitationBodySchema, { email: fields.email ?? "", role: fields.role ?? "member" });
  const invitation = await sendInvitation(c.env, new URL(c.req.url).origin, { workspaceId: c.req.valid("param").workspaceId, ...body });
  return `${invitation.email}에게 초대 메일을 보냈습니다. 링크는 ${kst(invitation.expiresAt)}까지 쓸 수 있습니다.`;
}, 201);

export const changeRoleForm = memberForm<"userId">(async (c, fields) => {
  const { role } = asApiBody(UpdateMemberBodySchema, { role: fields.role ?? "" });
  const member = await changeRole(c.env, c.req.valid("param").workspaceId, c.req.valid("param").userId, role);
  return `${member.email}의 역할을 ${ROLE_LABELS[member.role]}(으)로 바꿨습니다.`;
});

export const handOverForm = memberForm<"userId">(async (c) => {
  const workspaceId = c.req.valid("param").workspaceId;
  await handOver(c.env, workspaceId, consoleUserOf(c).userId, c.req.valid("param").userId);
  return "소유권을 넘겼습니다. 이제 구성원(member)이며, 내가 만든 관리 권한 키는 폐기했습니다.";
});

export const removeMemberForm = memberForm<"userId">(async (c) => {
  await removeMember(c.env, c.req.valid("param").workspaceId, c.req.valid("param").userId);
  return "내보냈습니다. 그 사람이 명령줄 로그인으로 받은 키와 그 사람이 만든 관리 권한 키도 폐기했습니다.";
});

export const revokeInvitationForm = memberForm<"invitationId">(async (c) => {
  await revokeInvitation(c.env.DB, c.req.valid("param").workspaceId, c.req.valid("param").invitationId);
  return "초대를 취소했습니다. 그 링크는 더 쓰이지 않습니다.";
});
