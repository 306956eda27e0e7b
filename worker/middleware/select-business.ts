import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../env";
import { ApiError, fieldError } from "../errors/api-error";
import { parseBusinessNumber } from "../partners/business-number";
import { connectionFor } from "../partners/connections";

export const BUSINESS_HEADER = "X-SVC-Business";

/**
 * On business-scoped routes a partner names the business it acts for; the
 * request then runs in that connection's workspace. Other workspaces act
 * for themselves and must not send the header.
 */
export const selectBusiness = createMiddleware<AppEnv>(async (c, next) => {
  const principal = c.get("principal")!;
  const header = c.req.header(BUSINESS_HEADER);
  if (!principal.isPartner) {
    if (header !== undefined) {
      throw new ApiError("CONNECTION_NOT_ALLOWED_FOR_NON_PARTNER", {
        message: "파트너 워크스페이스만 X-SVC-Business로 사업자를 선택할 수 있습니다. 헤더를 빼고 다시 요청해 주세요.",
        fieldErrors: [fieldError(`header.${BUSINESS_HEADER}`, "CONNECTION_NOT_ALLOWED_FOR_NON_PARTNER")],
      });
    }
  } else {
    if (!header) throw new ApiError("PARTNER_BUSINESS_SELECTOR_REQUIRED", { fieldErrors: [fieldError(`header.${BUSINESS_HEADER}`, "PARTNER_BUSINESS_SELECTOR_REQUIRED")] });
    const connection = await connectionFor(c.env.DB, principal.workspaceId, parseBusinessNumber(header, `header.${BUSINESS_HEADER}`));
    c.set("principal", { ...principal, workspaceId: connection.workspaceId });
  }
  await next();
});
