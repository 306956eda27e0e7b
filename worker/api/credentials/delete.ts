import { createRoute, type RouteHandler } from "@hono/zod-openapi";
import { deleteCredential } from "../../domain/credentials/store";
import { hasActiveJob } from "../../domain/jobs/store";
import { type ApiEnv, principalOf } from "../context";
import { errorResponses } from "../../platform/http/error-responses";
import { CredentialIdParamSchema, DeleteCredentialQuerySchema } from "./shapes";
import { deleteCredentialResults } from "../../domain/jobs/results-deletion";
import { managingBusiness } from "../guards";

export const route = managingBusiness("credentials.manage", createRoute({
  method: "delete",
  path: "/credentials/{id}",
  operationId: "deleteCredential",
  tags: ["Credentials"],
  summary: "자격 증명 삭제",
  description:
    "진행 중인 작업이 쓰고 있으면 409 CREDENTIAL_HAS_ACTIVE_CONNECTIONS. 삭제 뒤 이 기관의 새 작업은 Failed(CREDENTIAL_NOT_FOUND)로 끝납니다. deleteResults=true면 이 자격 증명으로 수집한 끝난 작업들의 결과도 함께 지워 바로 410 DATA_JOB_RESULTS_DELETED가 되고(작업 정보는 남음), 없거나 false면 결과는 보관 기간까지 남습니다 (docs/retention.md).",
  request: { params: CredentialIdParamSchema, query: DeleteCredentialQuerySchema },
  responses: {
    204: { description: "삭제되었습니다" },
    ...errorResponses("CREDENTIAL_NOT_FOUND", "CREDENTIAL_SUPERSEDED", "CREDENTIAL_HAS_ACTIVE_CONNECTIONS", "INVALID_PARAM_FORMAT"),
  },
}));

export const handler: RouteHandler<typeof route, ApiEnv> = async (c) => {
  const { workspaceId } = principalOf(c);
  const { id } = c.req.valid("param");
  await deleteCredential(c.env.DB, workspaceId, id, hasActiveJob);
  if (c.req.valid("query").deleteResults === "true") await deleteCredentialResults(c.env.DB, workspaceId, id, Date.now());
  return c.body(null, 204);
};
