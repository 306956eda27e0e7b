import { createRoute, type RouteHandler } from "@hono/zod-openapi";
import { type ApiEnv, principalOf } from "../context";
import { errorResponses } from "../../platform/http/error-responses";
import { jsonBody } from "../../platform/http/json-body";
import { sendInvitation } from "../../domain/users/send-invitation";
import { InvitationSchema, invitationView } from "./shapes";
import { CreateInvitationBodySchema } from "../../domain/users/inputs";
import { managing } from "../guards";

export const route = managing("members.manage", createRoute({
  method: "post",
  path: "/workspace/members/invitations",
  operationId: "createWorkspaceInvitation",
  tags: ["Workspace members"],
  summary: "구성원 초대",
  description:
    "확장 API. 그 주소로 한 번만 쓸 수 있는 초대 링크(7일)를 메일로 보냅니다. 받은 사람은 그 주소의 계정으로 로그인하거나 링크에서 바로 계정을 만들어 수락합니다. 같은 주소에 다시 보내면 앞의 링크는 더 쓰이지 않습니다. 이미 구성원인 주소는 409 DUPLICATE_EMAIL, 24시간에 50번을 넘으면 429 API_RATE_LIMITED(Retry-After)입니다.",
  request: jsonBody(CreateInvitationBodySchema),
  responses: {
    201: { description: "보낸 초대", content: { "application/json": { schema: InvitationSchema } } },
    ...errorResponses("ADMIN_ACTION_FORBIDDEN", "MISSING_REQUIRED_PARAM", "INVALID_PARAM_FORMAT", "DUPLICATE_EMAIL", "API_RATE_LIMITED"),
  },
}));

export const handler: RouteHandler<typeof route, ApiEnv> = async (c) => {
  const invitation = await sendInvitation(c.env, new URL(c.req.url).origin, { workspaceId: principalOf(c).workspaceId, ...c.req.valid("json") });
  return c.json(invitationView(invitation), 201);
};
