import { changeWorkspaceSuspension } from "../../../domain/operators/actions";
import { actorOf, type AdminApiEnv } from "../../context";
import { createRoute, type RouteHandler } from "@hono/zod-openapi";
import { errorResponses } from "../../../platform/http/error-responses";
import { jsonBody } from "../../../platform/http/json-body";
import { IdParamSchema, ReasonBodySchema, WorkspaceSchema } from "../shapes";
import { operating } from "../guards";
import { workspaceView } from "../views";

/** Suspending and restoring are one change in two directions: the same route shape, audit and effect. */
function suspensionRoute(direction: "suspend" | "restore") {
  const route = operating("workspaces.suspend", createRoute({
    method: "post",
    path: `/workspaces/{id}/${direction}`,
    operationId: direction === "suspend" ? "suspendWorkspace" : "restoreWorkspace",
    tags: ["Workspaces"],
    summary: direction === "suspend" ? "워크스페이스 이용 정지" : "워크스페이스 이용 재개",
    description:
      direction === "suspend"
        ? "곧바로 그 워크스페이스의 API 키는 403 WORKSPACE_ACCESS_DENIED, 콘솔 페이지도 거절되고, 새 작업(파트너가 그 비즈니스로 만드는 것과 일정 실행 포함)이 만들어지지 않습니다. 진행 중인 작업과 저장된 데이터는 그대로입니다. 이미 정지된 워크스페이스에 다시 보내도 그대로입니다."
        : "곧바로 키와 콘솔이 다시 열립니다. 정지되지 않은 워크스페이스에 보내도 그대로입니다.",
    request: { params: IdParamSchema, ...jsonBody(ReasonBodySchema) },
    responses: {
      200: { description: "바뀐 워크스페이스", content: { "application/json": { schema: WorkspaceSchema } } },
      ...errorResponses("WORKSPACE_NOT_FOUND"),
    },
  }));
  const handler: RouteHandler<typeof route, AdminApiEnv> = async (c) =>
    c.json(workspaceView(await changeWorkspaceSuspension(c.env, actorOf(c), c.req.valid("param").id, direction, c.req.valid("json").reason)), 200);
  return { route, handler };
}

export const suspend = suspensionRoute("suspend");
export const restore = suspensionRoute("restore");
