import { z } from "@hono/zod-openapi";
import { pathId, timestamp, uuid } from "../../platform/http/bounds";
import { isoTime } from "../../platform/lib/iso-time";
import type { InvitationRow } from "../../domain/users/invitations";
import { email, RoleSchema } from "../../domain/users/inputs";

export const InvitationIdParamSchema = z.object({ id: pathId().meta({ param: { name: "id", in: "path" } }) });

export const InvitationSchema = z
  .object({
    id: uuid(),
    email: email(),
    role: RoleSchema,
    createdAt: timestamp(),
    expiresAt: timestamp().meta({ description: "이때까지 수락하지 않으면 링크가 더는 쓰이지 않습니다 (보낸 뒤 7일)" }),
  })
  .openapi("WorkspaceInvitation");

export function invitationView(row: InvitationRow): z.infer<typeof InvitationSchema> {
  return { id: row.id, email: row.email, role: row.role, createdAt: isoTime(row.createdAt), expiresAt: isoTime(row.expiresAt) };
}
