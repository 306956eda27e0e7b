import type { OpenAPIHono } from "@hono/zod-openapi";
import type { ApiEnv } from "../context";
import * as createCredential from "./create";
import * as listCredentials from "./list";
import * as getCredential from "./get";
import * as deleteCredential from "./delete";
import * as updateCredential from "./update";
import * as checkCredential from "./check";
import * as createManageLink from "./manage-links";

/** A business's credentials for the institutions. */
export function registerCredentialRoutes(api: OpenAPIHono<ApiEnv>): void {
  api.openapi(createCredential.route, createCredential.handler);
  api.openapi(listCredentials.route, listCredentials.handler);
  api.openapi(getCredential.route, getCredential.handler);
  api.openapi(deleteCredential.route, deleteCredential.handler);
  api.openapi(updateCredential.route, updateCredential.handler);
  api.openapi(checkCredential.route, checkCredential.handler);
  api.openapi(createManageLink.route, createManageLink.handler);
}
