import { createRoute, type RouteHandler, z } from "@hono/zod-openapi";
import type { ApiEnv } from "../context";
import { revokeConnection } from "../../domain/partner-revocation/revoke";
import { JobLifecycle } from "../../domain/jobs/lifecycle";
import { pipelineDeps } from "../../domain/pipeline/deps";
import { releaseJobLeases } from "../../domain/pipeline/released-leases";
import { connectionView } from "./views";
import { errorResponses } from "../../platform/http/error-responses";
import { pathId } from "../../platform/http/bounds";
import { ConnectionSchema, partnerWorkspaceOf } from "./shapes";
import { managing } from "../guards";

export const route = managing("connections.manage", createRoute({
  method: "delete",
  path: "/connections/{id}",
  operationId: "revokeConnection",
  tags: ["Partners"],
  summary: "연결 해지",
  description:
    "해지하면 그 사업자의 자격 증명은 곧바로 삭제되어(비밀 값은 지워집니다) 쓸 수 없게 되고, 입력을 기다리던 등록 세션은 취소되며(410 REGISTRATION_SESSION_ALREADY_CANCELLED), 끝나지 않은 작업은 Failed(CREDENTIAL_NOT_FOUND)로 끝납니다. 그 사업자를 고른 요청은 409 CONNECTION_REVOKED가 됩니다. 다시 연결하면 새 연결이 만들어집니다. 관리 권한(canManageKeys)이 있는 키만 부를 수 있고, 없으면 403 ADMIN_ACTION_FORBIDDEN입니다.",
  request: { params: z.object({ id: pathId().meta({ param: { name: "id", in: "path" } }) }) },
  responses: {
    200: { description: "해지된 연결", content: { "application/json": { schema: ConnectionSchema } } },
    ...errorResponses("CONNECTION_NOT_FOUND", "CONNECTION_REVOKED", "CONNECTION_NOT_ALLOWED_FOR_NON_PARTNER", "ADMIN_ACTION_FORBIDDEN"),
  },
}));

export const handler: RouteHandler<typeof route, ApiEnv> = async (c) => {
  const { connection, endedJobs } = await revokeConnection(c.env, partnerWorkspaceOf(c), c.req.valid("param").id, new JobLifecycle(c.env));
  await releaseJobLeases(pipelineDeps(c.env), endedJobs);
  return c.json(connectionView(connection), 200);
};
