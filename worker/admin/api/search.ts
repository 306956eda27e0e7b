import { actorOf, type AdminApiEnv } from "../context";
import { MAX_MATCHES, searchTargets } from "../../domain/operators/actions";
import { createRoute, type RouteHandler, z } from "@hono/zod-openapi";
import { errorResponses } from "../../platform/http/error-responses";
import { MAX, pathId } from "../../platform/http/bounds";
import { workspaceView } from "./views";
import { OwnerEmailSchema, WorkspaceSchema } from "./shapes";
import { operating } from "./guards";

const MatchSchema = z
  .object({
    kind: z.enum(["workspace", "job", "credential", "connection"]),
    id: pathId(),
    workspace: WorkspaceSchema.nullable().meta({ description: "찾은 것이 속한 워크스페이스 (연결이면 그 비즈니스의 연결 워크스페이스)" }),
    ownerEmail: OwnerEmailSchema,
  })
  .openapi("AdminSearchMatch");

export const route = operating("workspaces.read", createRoute({
  method: "get",
  path: "/search",
  operationId: "searchOperatorTargets",
  tags: ["Workspaces"],
  summary: "id, 사업자등록번호, 회사 이름, 소유자 이메일로 찾기",
  description:
    "워크스페이스, 파트너, 작업, 인증정보, 연결을 id로, 사업자등록번호(숫자 10자리)로 그 사업자의 워크스페이스를 모두, 회사 이름이나 소유자 이메일의 일부로 그 워크스페이스를 찾습니다. 찾은 사실은 감사 기록에 남습니다.",
  request: { query: z.object({ q: z.string().trim().min(1).max(MAX.id).meta({ description: "id, 사업자등록번호, 회사 이름 또는 소유자 이메일 (일부도 됩니다)" }) }) },
  responses: {
    200: { description: "찾은 것, 최대 20개", content: { "application/json": { schema: z.object({ items: z.array(MatchSchema).max(MAX_MATCHES) }).openapi("AdminSearchResult") } } },
    ...errorResponses(),
  },
}));

export const handler: RouteHandler<typeof route, AdminApiEnv> = async (c) => {
  const matches = await searchTargets(c.env, actorOf(c), c.req.valid("query").q);
  return c.json({ items: matches.map((m) => ({ ...m, workspace: m.workspace && workspaceView(m.workspace) })) }, 200);
};
