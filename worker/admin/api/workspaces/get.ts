import { actorOf, type AdminApiEnv } from "../../context";
import { inspectWorkspace, LISTED, RECENT_JOBS } from "../../../domain/operators/actions";
import { createRoute, type RouteHandler, z } from "@hono/zod-openapi";
import { errorResponses } from "../../../platform/http/error-responses";
import { MAX, pathId, timestamp } from "../../../platform/http/bounds";
import { isoTime, isoTimeOrNull } from "../../../platform/lib/iso-time";
import { CredentialSummarySchema, IdParamSchema, JobSummarySchema, OwnerEmailSchema, WorkspaceSchema } from "../shapes";
import { credentialSummaryView, jobSummaryView, workspaceView } from "../views";
import { operating } from "../guards";

export const route = operating("workspaces.read", createRoute({
  method: "get",
  path: "/workspaces/{id}",
  operationId: "getOperatorWorkspace",
  tags: ["Workspaces"],
  summary: "워크스페이스 살펴보기",
  description:
    "워크스페이스와 소유자의 이메일, 그 API 키(앞부분만), 인증정보(기관, 상태, 기관이 거절했다면 그 이유, 가려진 라벨만), 최근 작업 20개. 비밀(키, 비밀번호, 인증서, 봉인된 값)은 어떤 역할에도 보이지 않습니다. 누가 언제 보았는지 감사 기록에 남습니다.",
  request: { params: IdParamSchema },
  responses: {
    200: {
      description: "워크스페이스",
      content: {
        "application/json": {
          schema: z
            .object({
              workspace: WorkspaceSchema,
              ownerEmail: OwnerEmailSchema,
              apiKeys: z.array(z.object({ id: pathId(), name: z.string().max(MAX.name), prefix: z.string().max(MAX.name), createdAt: timestamp(), revokedAt: timestamp().nullable() })).max(LISTED),
              credentials: z.array(CredentialSummarySchema).max(LISTED),
              recentJobs: z.array(JobSummarySchema).max(RECENT_JOBS),
            })
            .openapi("AdminWorkspaceDetail"),
        },
      },
    },
    ...errorResponses("WORKSPACE_NOT_FOUND"),
  },
}));

export const handler: RouteHandler<typeof route, AdminApiEnv> = async (c) => {
  const { workspace, ownerEmail, keys, credentials, jobs } = await inspectWorkspace(c.env, actorOf(c), c.req.valid("param").id);
  return c.json(
    {
      workspace: workspaceView(workspace),
      ownerEmail,
      apiKeys: keys.map((k) => ({ id: k.id, name: k.name, prefix: k.prefix, createdAt: isoTime(k.createdAt), revokedAt: isoTimeOrNull(k.revokedAt) })),
      credentials: credentials.map(credentialSummaryView),
      recentJobs: jobs.map(jobSummaryView),
    },
    200,
  );
};
