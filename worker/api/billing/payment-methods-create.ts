import { createRoute, type RouteHandler } from "@hono/zod-openapi";
import { addPaymentMethod } from "../../domain/billing/payment-methods";
import { portOneGateway } from "../../domain/billing/portone";
import { type ApiEnv, principalOf } from "../context";
import { errorResponses } from "../../platform/http/error-responses";
import { jsonBody } from "../../platform/http/json-body";
import { PaymentMethodSchema, paymentMethodView } from "./shapes";
import { CreatePaymentMethodBodySchema } from "../../domain/billing/inputs";
import { managing } from "../guards";
import { ApiError } from "../../platform/errors/api-error";
import { clientAddress } from "../../platform/http/client-address";
import { countCardAttempt } from "../../domain/console-sessions/login-attempts";
import { isSandboxOnly } from "../../domain/workspaces/provider-access";

export const route = managing("billing.manage", createRoute({
  method: "post",
  path: "/billing/payment-methods",
  operationId: "createPaymentMethod",
  tags: ["Billing"],
  summary: "결제 카드 등록",
  description:
    "확장 API. 카드 정보를 결제대행사(PortOne)에 넘겨 정기 결제용 빌링키를 받고, 빌링키만 봉인해 둡니다. 카드 번호는 끝 네 자리 말고는 저장하지 않습니다. 다음 결제는 가장 최근에 등록한 카드로 합니다. 카드사가 등록을 거절하면 402 CARD_DECLINED 등, 다섯 장을 넘으면 400 INVALID_PARAM_FORMAT입니다. 워크스페이스 소유자가 이메일을 확인하기 전에는 403 WORKSPACE_ACCESS_DENIED, 등록 시도는 워크스페이스마다 15분에 5번, 주소마다 10번까지이고 넘으면 429 API_RATE_LIMITED(Retry-After)입니다.",
  request: jsonBody(CreatePaymentMethodBodySchema),
  responses: {
    201: { description: "등록한 카드", content: { "application/json": { schema: PaymentMethodSchema } } },
    ...errorResponses("ADMIN_ACTION_FORBIDDEN", "WORKSPACE_ACCESS_DENIED", "MISSING_REQUIRED_PARAM", "INVALID_PARAM_FORMAT", "CARD_DECLINED", "PAYMENT_FAILED", "API_RATE_LIMITED"),
  },
}));

export const handler: RouteHandler<typeof route, ApiEnv> = async (c) => {
  const { workspaceId } = principalOf(c);
  // A key stands for its workspace, not a person: the workspace's owner must have confirmed their e-mail (a self-serve
  // workspace is held until then), so a throwaway sign-up cannot test cards; then attempts are limited.
  if (await isSandboxOnly(c.env.DB, workspaceId)) {
    throw new ApiError("WORKSPACE_ACCESS_DENIED", { message: "이메일 주소를 확인하기 전에는 카드를 등록할 수 없습니다. 가입할 때 받은 메일의 링크를 눌러 주세요." });
  }
  await countCardAttempt(c.env.DB, workspaceId, clientAddress(c));
  const row = await addPaymentMethod(c.env, portOneGateway(c.env), workspaceId, c.req.valid("json").card);
  return c.json(paymentMethodView(row), 201);
};
