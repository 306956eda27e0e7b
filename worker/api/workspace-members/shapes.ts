import { z } from "@hono/zod-openapi";
import { MEMBER_ROLES } from "../../platform/database/tables";
import { pathId, timestamp, uuid } from "../../platform/http/bounds";
import { isoTime } from "../../platform/lib/iso-time";
import type { Member } from "../../domain/users/members";

/** As users.email allows (RFC 5321's longest address). */
export const email = () => z.email().max(254);

export const RoleSchema = z.enum(MEMBER_ROLES).meta({ description: "owner: 워크스페이스 관리(구성원, 키, 자격 증명, 웹훅, 결제). member: 수집 실행·조회와 결과 내려받기" });

export const UserIdParamSchema = z.object({ userId: pathId().meta({ param: { name: "userId", in: "path" } }) });

export const MemberSchema = z
  .object({
    userId: uuid(),
    email: email(),
    role: RoleSchema,
    joinedAt: timestamp(),
  })
  .openapi("WorkspaceMember");

export const UpdateMemberBodySchema = z.object({ role: RoleSchema }).openapi("UpdateWorkspaceMemberRequest");

export function memberView(member: Member): z.infer<typeof MemberSchema> {
  return { userId: member.userId, email: member.email, role: member.role, joinedAt: isoTime(member.joinedAt) };
}
