import { z } from "@hono/zod-openapi";
import { email, RoleSchema } from "../../domain/users/inputs";
import { pathId, timestamp, uuid } from "../../platform/http/bounds";
import { isoTime } from "../../platform/lib/iso-time";
import type { Member } from "../../domain/users/members";

/** As users.email allows (RFC 5321's longest address). */
export const UserIdParamSchema = z.object({ userId: pathId().meta({ param: { name: "userId", in: "path" } }) });

export const MemberSchema = z
  .object({
    userId: uuid(),
    email: email(),
    role: RoleSchema,
    joinedAt: timestamp(),
  })
  .openapi("WorkspaceMember");

export function memberView(member: Member): z.infer<typeof MemberSchema> {
  return { userId: member.userId, email: member.email, role: member.role, joinedAt: isoTime(member.joinedAt) };
}
