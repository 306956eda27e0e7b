import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../../env";
import { ApiError } from "../../errors/api-error";
import { principalOf } from "../principal";

/**
 * Key management is for keys given the right (canManageKeys): a leaked key
 * that only collects data can neither mint itself successors nor revoke
 * the owner's keys. Runs before the request is validated, so a key without
 * the right learns nothing from its answers but this refusal.
 */
export const keyManagersOnly = createMiddleware<AppEnv>(async (c, next) => {
  if (!principalOf(c).rights.canManageKeys) {
    throw new ApiError("ADMIN_ACTION_FORBIDDEN", { message: "이 API 키에는 키 관리 권한(canManageKeys)이 없습니다. 키 관리 권한이 있는 키로 요청해 주세요." });
  }
  await next();
});
