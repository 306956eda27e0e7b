import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../env";
import { ApiError } from "../errors/api-error";
import { principalOf } from "./principal";

/**
 * Managing the workspace (its keys, its partner connections, its webhook
 * endpoints) is for keys given the right (canManageKeys): a leaked key that
 * only collects data can neither mint itself successors, revoke the owner's
 * keys, end a connection (which erases its credentials) nor point or replay
 * webhooks somewhere else. Runs before the request is validated, so a key
 * without the right learns nothing from its answers but this refusal.
 */
export const managersOnly = createMiddleware<AppEnv>(async (c, next) => {
  if (!principalOf(c).rights.canManageKeys) {
    throw new ApiError("ADMIN_ACTION_FORBIDDEN", { message: "이 API 키에는 관리 권한(canManageKeys)이 없습니다. 관리 권한이 있는 키로 요청해 주세요." });
  }
  await next();
});
