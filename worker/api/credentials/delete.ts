import { createRoute, type RouteHandler } from "@hono/zod-openapi";
import { deleteCredential } from "../../domain/credentials/retirement";
import { hasActiveJob } from "../../domain/jobs/store";
import { type ApiEnv, principalOf } from "../context";
import { errorResponses } from "../../platform/http/error-responses";
import { CredentialIdParamSchema, DeleteCredentialQuerySchema } from "./shapes";
import { deleteCredentialResults } from "../../domain/jobs/results-rows";
import { credentialLineage } from "../../domain/credentials/lineage";
import { managingBusiness } from "../guards";

export const route = managingBusiness("credentials.manage", createRoute({
  method: "delete",
  path: "/credentials/{id}",
  operationId: "deleteCredential",
  tags: ["Credentials"],
  summary: "자격 증명 삭제",
  description:
    "진행 중인 작업이 쓰고 있으면 409 CREDENTIAL_HAS_ACTIVE_CONNECTIONS. 삭제 뒤 이 기관의 새 작업은 Failed(CREDENTIAL_NOT_FOUND)로 끝납니다. deleteResults=true면 이 자격 증명과, 같은 계정을 다시 등록해 이것이 교체한 이전 자격 증명들로 수집한 끝난 작업들의 결과도 함께 지워 바로 410 DATA_JOB_RESULTS_DELETED가 되고(작업 정보는 남음), 없거나 false면 결과는 보관 기간까지 남습니다 (docs/retention.md). deleteResults=true는 이미 삭제되었거나 교체된(SUPERSEDED) 자격 증명의 id에도 쓸 수 있어 그 결과만 지우고 204입니다(교체된 것이면 새 자격 증명은 그대로). deleteResults 없이 삭제된 것은 404 CREDENTIAL_NOT_FOUND, 교체된 것은 409 CREDENTIAL_SUPERSEDED입니다. 이전 자격 증명으로 진행 중인 작업이 있어도 409 CREDENTIAL_HAS_ACTIVE_CONNECTIONS입니다.",
  request: { params: CredentialIdParamSchema, query: DeleteCredentialQuerySchema },
  responses: {
    204: { description: "삭제되었습니다" },
    ...errorResponses("CREDENTIAL_NOT_FOUND", "CREDENTIAL_SUPERSEDED", "CREDENTIAL_HAS_ACTIVE_CONNECTIONS", "INVALID_PARAM_FORMAT"),
  },
}));

export const handler: RouteHandler<typeof route, ApiEnv> = async (c) => {
  const { workspaceId } = principalOf(c);
  const { id } = c.req.valid("param");
  const withResults = c.req.valid("query").deleteResults === "true";
  // With its results, a credential already deleted or registered again is taken too: its results are still there to delete.
  const lineage = withResults ? await credentialLineage(c.env.DB, workspaceId, id) : null;
  if (!withResults || lineage?.status === "ACTIVE") await deleteCredential(c.env.DB, workspaceId, id, hasActiveJob);
  if (withResults) await deleteCredentialResults(c.env.DB, workspaceId, id, Date.now());
  return c.body(null, 204);
};
