import { inspectJob } from "../../../domain/operators/actions";
import { actorOf, type AdminApiEnv } from "../../context";
import { createRoute, type RouteHandler, z } from "@hono/zod-openapi";
import { errorResponses } from "../../../platform/http/error-responses";
import { CredentialSummarySchema, IdParamSchema, JobSummarySchema, OwnerEmailSchema, WorkspaceSchema } from "../shapes";
import { credentialSummaryView, jobSummaryView, workspaceView } from "../views";
import { operating } from "../guards";

export const route = operating("workspaces.read", createRoute({
  method: "get",
  path: "/jobs/{id}",
  operationId: "getOperatorJob",
  tags: ["Jobs"],
  summary: "작업 살펴보기",
  description:
    "작업 하나와 그 워크스페이스, 작업이 쓴 인증정보(비밀 없이, 기관이 거절했다면 그 이유와 함께). 고객이 실패를 물을 때 읽는 곳입니다. 누가 언제 보았는지 감사 기록에 남습니다.",
  request: { params: IdParamSchema },
  responses: {
    200: {
      description: "작업",
      content: {
        "application/json": {
          schema: z
            .object({ job: JobSummarySchema, workspace: WorkspaceSchema, ownerEmail: OwnerEmailSchema, credential: CredentialSummarySchema.nullable() })
            .openapi("AdminJobDetail"),
        },
      },
    },
    ...errorResponses("DATA_JOB_NOT_FOUND"),
  },
}));

export const handler: RouteHandler<typeof route, AdminApiEnv> = async (c) => {
  const { job, workspace, ownerEmail, credential } = await inspectJob(c.env, actorOf(c), c.req.valid("param").id);
  return c.json({ job: jobSummaryView(job), workspace: workspaceView(workspace), ownerEmail, credential: credential && credentialSummaryView(credential) }, 200);
};
