import { createRoute, type RouteHandler } from "@hono/zod-openapi";
import { findCredential } from "../../domain/credentials/store";
import { credentialView } from "../../domain/credentials/views";
import { type ApiEnv, principalOf } from "../context";
import { errorResponses } from "../../platform/http/error-responses";
import { CredentialIdParamSchema, CredentialSchema } from "./shapes";
import { businessScoped } from "../guards";

export const route = businessScoped(createRoute({
  method: "get",
  path: "/credentials/{id}",
  operationId: "getCredential",
  tags: ["Credentials"],
  summary: "자격 증명 조회",
  request: { params: CredentialIdParamSchema },
  responses: {
    200: { description: "자격 증명", content: { "application/json": { schema: CredentialSchema } } },
    ...errorResponses("CREDENTIAL_NOT_FOUND", "CREDENTIAL_SUPERSEDED"),
  },
}));

export const handler: RouteHandler<typeof route, ApiEnv> = async (c) =>
  c.json(credentialView(await findCredential(c.env.DB, principalOf(c).workspaceId, c.req.valid("param").id)), 200);
