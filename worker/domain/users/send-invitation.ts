import type { MemberRole } from "../workspaces/tables";
import { sendMail } from "../mail/outbox";
import { workspaceNames } from "../workspaces/store";
import { INVITATION_TTL_MS, type InvitationRow, invite } from "./invitations";

/** The console page an invitation's link opens (console/invitation.tsx). */
export const INVITATION_PAGE = "/console/invitation";

/** "as the role", with the particle each word takes. */
export const AS_ROLE: Record<MemberRole, string> = { owner: "소유자(owner)로", member: "구성원(member)으로" };

/** Invites an address (domain/users/invitations.ts `invite`) and mails it the link, as the API and the console both do. */
export async function sendInvitation(
  env: Pick<Env, "DB" | "MAIL" | "MAIL_FROM" | "MAIL_OUTBOX_ONLY">,
  origin: string,
  input: { workspaceId: string; email: string; role: MemberRole },
): Promise<InvitationRow> {
  const { invitation, token } = await invite(env.DB, input);
  const workspace = (await workspaceNames(env.DB, [input.workspaceId])).get(input.workspaceId) ?? "";
  await sendMail(env, {
    to: invitation.email,
    subject: `${workspace} 워크스페이스에 초대되었습니다`,
    text: [
      `${workspace} 워크스페이스에 ${AS_ROLE[invitation.role]} 초대되었습니다.`,
      "아래 링크에서 수락해 주세요. 계정이 없으면 그 페이지에서 비밀번호를 정해 바로 만들 수 있습니다.",
      `이 링크는 ${INVITATION_TTL_MS / 86_400_000}일 동안 한 번 쓸 수 있습니다. 모르는 초대라면 무시해 주세요.`,
      "",
      `${origin}${INVITATION_PAGE}?token=${token}`,
    ].join("\n"),
    secrets: [token],
  });
  return invitation;
}
