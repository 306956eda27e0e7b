import { createRoute, type RouteHandler } from "@hono/zod-openapi";
import { createRoute as storeRoute } from "../../domain/deliveries/store";
import { type ApiEnv, principalOf } from "../context";
import { errorResponses } from "../../platform/http/error-responses";
import { jsonBody } from "../../platform/http/json-body";
import { localDestinationsAllowed } from "../../platform/http/public-destination";
import { DeliveryRouteSchema } from "./shapes";
import { CreateDeliveryRouteBodySchema, routeInput } from "../../domain/deliveries/inputs";
import { routeView } from "../../domain/deliveries/views";
import { managing } from "../guards";

export const route = managing("deliveries.manage", createRoute({
  method: "post",
  path: "/delivery-routes",
  operationId: "createDeliveryRoute",
  tags: ["Delivery routes"],
  summary: "결과 전달 경로 등록",
  description:
    "확장 API. 성공한 작업의 결과(results.csv, results.json, 마지막에 manifest.json)를 보낼 S3 호환 버킷(R2 포함) 또는 SFTP 서버를 등록합니다. 작업이나 일정을 만들 때 deliveryRouteId로 붙입니다. S3 주소는 공개 주소의 https(443 또는 8443)만, SFTP 서버는 공개 주소만 받고, 사설·루프백·링크 로컬·예약 주소나 내부망 이름은 400 INVALID_PARAM_FORMAT입니다(보낼 때마다 다시 확인하고, 리디렉션은 따라가지 않습니다). 비밀은 봉인해 다시 보여 주지 않습니다. 관리 권한이 있는 키만 부를 수 있습니다 (docs/operations.md).",
  request: jsonBody(CreateDeliveryRouteBodySchema),
  responses: {
    201: { description: "등록한 경로", content: { "application/json": { schema: DeliveryRouteSchema } } },
    ...errorResponses("INVALID_PARAM_FORMAT", "ADMIN_ACTION_FORBIDDEN", "MISSING_REQUIRED_PARAM"),
  },
}));

export const handler: RouteHandler<typeof route, ApiEnv> = async (c) => {
  const row = await storeRoute(c.env.DB, c.env.VAULT_MASTER_KEY, { workspaceId: principalOf(c).workspaceId, ...routeInput(c.req.valid("json")) }, localDestinationsAllowed(c.env));
  return c.json(routeView(row), 201);
};
