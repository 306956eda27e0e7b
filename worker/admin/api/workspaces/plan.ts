import { PLANS } from "../../../domain/workspaces/tables";
import { changeWorkspacePlan } from "../../../domain/operators/actions";
import { actorOf, type AdminApiEnv } from "../../context";
import { createRoute, type RouteHandler, z } from "@hono/zod-openapi";
import { errorResponses } from "../../../platform/http/error-responses";
import { jsonBody } from "../../../platform/http/json-body";
import { IdParamSchema, ReasonSchema, WorkspaceSchema } from "../shapes";
import { workspaceView } from "../views";
import { operating } from "../guards";

export const route = operating("workspaces.plan", createRoute({
  method: "put",
  path: "/workspaces/{id}/plan",
  operationId: "setWorkspacePlan",
  tags: ["Workspaces"],
  summary: "워크스페이스 요금제 바꾸기",
  description:
    "INTERNAL은 우리와 파트너의 시험용 워크스페이스에 운영자만 주는 내부 요금제로, 한도가 없고 살 수 없습니다. 파트너의 연결 워크스페이스는 파트너의 요금제를 따르므로 파트너 워크스페이스에서 바꿉니다. 다음 작업 생성부터 새 한도가 적용됩니다.",
  request: { params: IdParamSchema, ...jsonBody(z.object({ plan: z.enum(PLANS), reason: ReasonSchema }).openapi("AdminPlanChange")) },
  responses: {
    200: { description: "바뀐 워크스페이스", content: { "application/json": { schema: WorkspaceSchema } } },
    ...errorResponses("WORKSPACE_NOT_FOUND"),
  },
}));

export const handler: RouteHandler<typeof route, AdminApiEnv> = async (c) => {
  const { plan, reason } = c.req.valid("json");
  return c.json(workspaceView(await changeWorkspacePlan(c.env, actorOf(c), c.req.valid("param").id, plan, reason)), 200);
};
