import { createRoute, type RouteHandler, z } from "@hono/zod-openapi";
import type { AppEnv } from "../../../env";
import { ApiError } from "../../../errors/api-error";
import { errorResponses } from "../../../http/error-responses";
import { jsonBody } from "../../../http/json-body";
import { markAction } from "../../../operators/audit";
import { operatorOf } from "../../../operators/authenticate";
import { setPlan, workspaceRow } from "../../../workspaces/store";
import { IdParamSchema, ReasonSchema, WorkspaceSchema } from "../../shapes";
import { workspaceView } from "../../views";

export const route = createRoute({
  method: "put",
  path: "/workspaces/{id}/plan",
  operationId: "setWorkspacePlan",
  tags: ["Workspaces"],
  summary: "워크스페이스 요금제 바꾸기",
  description:
    "INTERNAL은 우리와 파트너의 시험용 워크스페이스에 운영자만 주는 내부 요금제로, 한도가 없고 살 수 없습니다. 파트너의 연결 워크스페이스는 파트너의 요금제를 따르므로 파트너 워크스페이스에서 바꿉니다. 다음 작업 생성부터 새 한도가 적용됩니다.",
  request: { params: IdParamSchema, ...jsonBody(z.object({ plan: z.enum(["FREE", "PRO", "INTERNAL"]), reason: ReasonSchema }).openapi("AdminPlanChange")) },
  responses: {
    200: { description: "바뀐 워크스페이스", content: { "application/json": { schema: WorkspaceSchema } } },
    ...errorResponses("WORKSPACE_NOT_FOUND"),
  },
});

export const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
  const { id } = c.req.valid("param");
  const { plan, reason } = c.req.valid("json");
  const before = await workspaceRow(c.env.DB, id);
  if (!before) throw new ApiError("WORKSPACE_NOT_FOUND");
  await markAction(c.env.DB, operatorOf(c), c.get("requestId"), { action: "workspace.plan", targetKind: "workspace", targetId: id, reason, detail: { from: before.plan, to: plan } });
  await setPlan(c.env.DB, id, plan);
  return c.json(workspaceView((await workspaceRow(c.env.DB, id))!), 200);
};
