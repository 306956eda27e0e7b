import { z } from "@hono/zod-openapi";
import { MEMBER_ROLES } from "../workspaces/tables";

export const email = () => z.email().max(254);

export const RoleSchema = z.enum(MEMBER_ROLES).meta({ description: "owner: 워크스페이스 관리(구성원, 키, 자격 증명, 웹훅, 결제). member: 수집 실행·조회와 결과 내려받기" });

export const UpdateMemberBodySchema = z.object({ role: RoleSchema }).openapi("UpdateWorkspaceMemberRequest");

export const CreateInvitationBodySchema = z
  .object({
    email: email().meta({ description: "초대할 사람의 이메일. 이 주소의 계정으로만 수락할 수 있습니다" }),
    role: RoleSchema.default("member"),
  })
  .openapi("CreateWorkspaceInvitationRequest");
