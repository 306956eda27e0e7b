import { z } from "@hono/zod-openapi";
import { createMiddleware } from "hono/factory";
import { type ApiEnv, principalOf } from "./context";
import { ApiError, fieldError } from "../platform/errors/api-error";
import type { RouteFront } from "../platform/http/route-fronts";
import { BUSINESS_NUMBER_INPUT_MAX, parseBusinessNumber } from "../domain/partners/business-number";
import { connectionFor } from "../domain/partners/connections";

export const BUSINESS_HEADER = "X-SVC-Business";

/**
 * On business-scoped routes a partner names the business it acts for; the
 * request then runs in that connection's workspace. Other workspaces act
 * for themselves and must not send the header. Where the body may name the
 * connection instead (`headerRequired` false), a partner without the header
 * goes on as itself and the route resolves the body's connectionId.
 */
const selectBusiness = (headerRequired: boolean) => createMiddleware<ApiEnv>(async (c, next) => {
  const principal = principalOf(c);
  const header = c.req.header(BUSINESS_HEADER);
  if (!principal.isPartner) {
    if (header !== undefined) {
      throw new ApiError("CONNECTION_NOT_ALLOWED_FOR_NON_PARTNER", {
        message: "파트너 워크스페이스만 X-SVC-Business로 사업자를 선택할 수 있습니다. 헤더를 빼고 다시 요청해 주세요.",
        fieldErrors: [fieldError(`header.${BUSINESS_HEADER}`, "CONNECTION_NOT_ALLOWED_FOR_NON_PARTNER")],
      });
    }
  } else {
    if (header) {
      const connection = await connectionFor(c.env.DB, principal.workspaceId, parseBusinessNumber(header, `header.${BUSINESS_HEADER}`));
      c.set("principal", { ...principal, workspaceId: connection.workspaceId, connectionId: connection.id });
    } else if (headerRequired) {
      throw new ApiError("PARTNER_BUSINESS_SELECTOR_REQUIRED", { fieldErrors: [fieldError(`header.${BUSINESS_HEADER}`, "PARTNER_BUSINESS_SELECTOR_REQUIRED")] });
    }
  }
  await next();
});

const businessHeader = (description: string) => ({
  [BUSINESS_HEADER]: z.string().max(BUSINESS_NUMBER_INPUT_MAX).optional().meta({ description, example: "120-88-00767" }),
});

/** What a business-scoped route is registered behind: the selection runs first and its header and codes are in the route's document. */
export const BUSINESS_SELECTION: RouteFront<ApiEnv> = {
  middleware: selectBusiness(true),
  headers: businessHeader("파트너 워크스페이스가 대신 일할 사업자의 사업자등록번호 (하이픈 선택). 파트너는 반드시 보내고, 다른 워크스페이스는 보내지 않습니다."),
  errors: ["CONNECTION_NOT_ALLOWED_FOR_NON_PARTNER", "PARTNER_BUSINESS_SELECTOR_REQUIRED", "INVALID_BUSINESS_REGISTRATION_NUMBER", "CONNECTION_NOT_FOUND", "CONNECTION_REVOKED"],
};

/** Job creation: a partner names the business by this header or by the body's connectionId (domain/jobs/acting-for.ts). */
export const BUSINESS_SELECTION_OR_BODY: RouteFront<ApiEnv> = {
  middleware: selectBusiness(false),
  headers: businessHeader("파트너 워크스페이스가 대신 일할 사업자의 사업자등록번호 (하이픈 선택). 파트너는 이 헤더나 본문의 connectionId 중 하나로 사업자를 고릅니다. 다른 워크스페이스는 보내지 않습니다."),
  errors: ["CONNECTION_NOT_ALLOWED_FOR_NON_PARTNER", "INVALID_BUSINESS_REGISTRATION_NUMBER", "CONNECTION_NOT_FOUND", "CONNECTION_REVOKED"],
};
