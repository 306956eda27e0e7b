import { announceProviderOutage } from "../../../domain/operators/actions";
import { actorOf, type AdminApiEnv } from "../../context";
import { createRoute, type RouteHandler, z } from "@hono/zod-openapi";
import { errorResponses } from "../../../platform/http/error-responses";
import { jsonBody } from "../../../platform/http/json-body";
import { timestamp } from "../../../platform/http/bounds";
import { ProviderCodeParamSchema, providerOrThrow } from "../../../web/provider-code-param";
import { ReasonSchema } from "../shapes";
import { OutageNoteSchema, OutageSchema } from "./shapes";
import { outageView } from "./views";
import { operating } from "../guards";

export const route = operating("outages.manage", createRoute({
  method: "post",
  path: "/providers/{code}/outages",
  operationId: "announceProviderOutage",
  tags: ["Providers"],
  summary: "기관 장애·임시 점검 등록",
  description:
    "기관이 공지한 임시 점검이나 알려진 장애를 기관의 점검 달력에 더합니다. 곧바로 GET /api/v1/providers/{code}의 maintenance에 보이고, 이 시간에 걸리는 작업은 정기 점검처럼 끝날 때까지 기다리거나(maxWaitSeconds 안에서) PROVIDER_TIME_WINDOW로 실패합니다. 끝이 시작보다 뒤이고 아직 지나지 않아야 하며, 길이는 7일까지입니다 (400 DATE_RANGE_INVALID).",
  request: {
    params: ProviderCodeParamSchema,
    ...jsonBody(
      z
        .object({
          startsAt: timestamp(),
          endsAt: timestamp(),
          note: OutageNoteSchema,
          reason: ReasonSchema,
        })
        .openapi("OutageAnnouncement"),
    ),
  },
  responses: {
    201: { description: "등록한 장애·점검", content: { "application/json": { schema: OutageSchema } } },
    ...errorResponses("INVALID_PROVIDER_CODE", "DATE_RANGE_INVALID"),
  },
}));

export const handler: RouteHandler<typeof route, AdminApiEnv> = async (c) => {
  const provider = providerOrThrow(c.req.valid("param").code);
  return c.json(outageView(await announceProviderOutage(c.env, actorOf(c), provider, c.req.valid("json"))), 201);
};
