import { createRoute, type RouteHandler, z } from "@hono/zod-openapi";
import { listApiKeys } from "../../../api-keys/store";
import { listCredentials } from "../../../credentials/store";
import type { AppEnv } from "../../../env";
import { ApiError } from "../../../errors/api-error";
import { errorResponses } from "../../../http/error-responses";
import { code, MAX, pathId, timestamp } from "../../../http/bounds";
import { listJobs } from "../../../jobs/store";
import { isoTime, isoTimeOrNull } from "../../../lib/iso-time";
import { markAction } from "../../../operators/audit";
import { operatorOf } from "../../../operators/authenticate";
import { workspaceRow } from "../../../workspaces/store";
import { IdParamSchema, JobSummarySchema, WorkspaceSchema } from "../../shapes";
import { jobSummaryView, workspaceView } from "../../views";

const RECENT_JOBS = 20;
const LISTED = 100;

export const route = createRoute({
  method: "get",
  path: "/workspaces/{id}",
  operationId: "getOperatorWorkspace",
  tags: ["Workspaces"],
  summary: "워크스페이스 살펴보기",
  description:
    "워크스페이스와 그 API 키(앞부분만), 인증정보(기관, 상태, 가려진 라벨만), 최근 작업 20개. 비밀(키, 비밀번호, 인증서, 봉인된 값)은 어떤 역할에도 보이지 않습니다. 누가 언제 보았는지 감사 기록에 남습니다.",
  request: { params: IdParamSchema },
  responses: {
    200: {
      description: "워크스페이스",
      content: {
        "application/json": {
          schema: z
            .object({
              workspace: WorkspaceSchema,
              apiKeys: z.array(z.object({ id: pathId(), name: z.string().max(MAX.name), prefix: z.string().max(MAX.name), createdAt: timestamp(), revokedAt: timestamp().nullable() })).max(LISTED),
              credentials: z.array(z.object({ id: pathId(), providerCode: code(), authMethod: code(), status: code(), label: z.string().max(MAX.text).nullable(), createdAt: timestamp() })).max(LISTED),
              recentJobs: z.array(JobSummarySchema).max(RECENT_JOBS),
            })
            .openapi("AdminWorkspaceDetail"),
        },
      },
    },
    ...errorResponses("WORKSPACE_NOT_FOUND"),
  },
});

export const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
  const { id } = c.req.valid("param");
  const workspace = await workspaceRow(c.env.DB, id);
  if (!workspace) throw new ApiError("WORKSPACE_NOT_FOUND");
  await markAction(c.env.DB, operatorOf(c), c.get("requestId"), { action: "workspace.view", targetKind: "workspace", targetId: id, reason: null });
  const [keys, credentials, jobs] = await Promise.all([
    listApiKeys(c.env.DB, id, { limit: LISTED, after: undefined }),
    listCredentials(c.env.DB, id, { limit: LISTED, after: undefined }),
    listJobs(c.env.DB, { workspaceId: id, limit: RECENT_JOBS }),
  ]);
  return c.json(
    {
      workspace: workspaceView(workspace),
      apiKeys: keys.slice(0, LISTED).map((k) => ({ id: k.id, name: k.name, prefix: k.prefix, createdAt: isoTime(k.createdAt), revokedAt: isoTimeOrNull(k.revokedAt) })),
      credentials: credentials.slice(0, LISTED).map((r) => ({ id: r.id, providerCode: r.providerCode, authMethod: r.authMethod, status: r.status, label: r.label, createdAt: isoTime(r.createdAt) })),
      recentJobs: jobs.slice(0, RECENT_JOBS).map(jobSummaryView),
    },
    200,
  );
};
