import { createRoute, type RouteHandler } from "@hono/zod-openapi";
import type { ApiEnv } from "../context";
import { errorResponses } from "../../platform/http/error-responses";
import { partnerActingFor } from "../../domain/partners/connections";
import { revokeConnection } from "../../domain/partner-revocation/revoke";
import { JobLifecycle } from "../../domain/jobs/lifecycle";
import { pipelineDeps } from "../../domain/pipeline/deps";
import { releaseJobLeases } from "../../domain/pipeline/released-leases";
import { provenBusinessOf } from "./business-self";
import { PartnerIdParamSchema } from "./shapes";
import { managing } from "../guards";

export const route = managing("connections.manage", createRoute({
  method: "delete",
  path: "/partners/{id}",
  operationId: "revokeActingPartner",
  tags: ["Partners"],
  summary: "파트너 연결 끊기",
  description:
    "사업자가 파트너의 연결을 끊습니다: 파트너가 DELETE /connections/{id}로 해지한 것과 같이, 파트너가 맡긴 이 사업자의 자격 증명은 삭제되고(비밀 값은 지워집니다) 등록 세션은 취소되며 끝나지 않은 작업은 Failed(CREDENTIAL_NOT_FOUND)로 끝납니다. 사업자 자신의 워크스페이스에 있는 것은 그대로입니다.",
  request: { params: PartnerIdParamSchema },
  responses: {
    204: { description: "연결을 끊었습니다" },
    ...errorResponses("WORKSPACE_ACCESS_DENIED", "PARTNER_NOT_FOUND", "ADMIN_ACTION_FORBIDDEN"),
  },
}));

export const handler: RouteHandler<typeof route, ApiEnv> = async (c) => {
  const partner = await partnerActingFor(c.env.DB, await provenBusinessOf(c), c.req.valid("param").id);
  const { endedJobs } = await revokeConnection(c.env, partner.id, partner.connectionId, new JobLifecycle(c.env));
  await releaseJobLeases(pipelineDeps(c.env), endedJobs);
  return c.body(null, 204);
};
