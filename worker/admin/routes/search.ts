import { createRoute, type RouteHandler, z } from "@hono/zod-openapi";
import { credentialWorkspace } from "../../credentials/store";
import type { AppEnv } from "../../env";
import { errorResponses } from "../../http/error-responses";
import { MAX, pathId } from "../../http/bounds";
import { findJobById } from "../../jobs/store";
import { markAction } from "../../operators/audit";
import { operatorOf } from "../../operators/authenticate";
import { connectionById } from "../../partners/connections";
import { workspaceRow, workspacesMatching } from "../../workspaces/store";
import { workspaceView } from "../views";
import { WorkspaceSchema } from "../shapes";

const MAX_MATCHES = 20;

const MatchSchema = z
  .object({
    kind: z.enum(["workspace", "job", "credential", "connection"]),
    id: pathId(),
    workspace: WorkspaceSchema.nullable().meta({ description: "찾은 것이 속한 워크스페이스 (연결이면 그 비즈니스의 연결 워크스페이스)" }),
  })
  .openapi("AdminSearchMatch");

export const route = createRoute({
  method: "get",
  path: "/search",
  operationId: "searchOperatorTargets",
  tags: ["Workspaces"],
  summary: "id나 사업자등록번호로 찾기",
  description:
    "워크스페이스, 파트너, 작업, 인증정보, 연결을 id로, 또는 사업자등록번호(숫자 10자리)로 그 사업자의 워크스페이스를 모두 찾습니다. 찾은 사실은 감사 기록에 남습니다.",
  request: { query: z.object({ q: z.string().trim().min(1).max(MAX.id).meta({ description: "id 또는 사업자등록번호" }) }) },
  responses: {
    200: { description: "찾은 것, 최대 20개", content: { "application/json": { schema: z.object({ items: z.array(MatchSchema).max(MAX_MATCHES) }).openapi("AdminSearchResult") } } },
    ...errorResponses(),
  },
});

export const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
  const asked = c.req.valid("query").q;
  // A business number as people write it (123-45-67890) is found as stored, digits only.
  const term = /^\d{3}-\d{2}-\d{5}$/.test(asked) ? asked.replaceAll("-", "") : asked;
  await markAction(c.env.DB, operatorOf(c), c.get("requestId"), { action: "search", targetKind: "query", targetId: term, reason: null });
  const [workspaces, job, credentialOf, connection] = await Promise.all([
    workspacesMatching(c.env.DB, term, MAX_MATCHES),
    findJobById(c.env.DB, term),
    credentialWorkspace(c.env.DB, term),
    connectionById(c.env.DB, term),
  ]);
  const owners = new Map(workspaces.map((w) => [w.id, w]));
  const ownerOf = async (workspaceId: string) => {
    const found = owners.get(workspaceId) ?? (await workspaceRow(c.env.DB, workspaceId));
    return found ? workspaceView(found) : null;
  };
  const items = [
    ...workspaces.map((w) => ({ kind: "workspace" as const, id: w.id, workspace: workspaceView(w) })),
    ...(job ? [{ kind: "job" as const, id: job.id, workspace: await ownerOf(job.workspaceId) }] : []),
    ...(credentialOf ? [{ kind: "credential" as const, id: term, workspace: await ownerOf(credentialOf) }] : []),
    ...(connection ? [{ kind: "connection" as const, id: connection.id, workspace: await ownerOf(connection.workspaceId) }] : []),
  ];
  return c.json({ items: items.slice(0, MAX_MATCHES) }, 200);
};
