import { createRoute, type RouteHandler, z } from "@hono/zod-openapi";
import type { ApiEnv } from "../context";
import { errorResponses } from "../../platform/http/error-responses";
import { jsonBody } from "../../platform/http/json-body";
import { timestamp } from "../../platform/http/bounds";
import { removeOpenBankingKeys, setOpenBankingKeys } from "../../domain/partners/open-banking-keys";
import { partnerWorkspaceOf } from "../connections/shapes";
import { managing } from "../guards";

export const OpenBankingKeysSchema = z
  .object({
    clientId: z.string().max(100).meta({ description: "이용기관 client_id (동의 화면 주소에 실립니다)" }),
    clientUseCode: z.string().length(10).meta({ description: "이용기관 코드 10자 (모든 bank_tran_id의 앞 10자리)", example: "M202600002" }),
    setAt: timestamp().meta({ description: "정한 때" }),
  })
  .openapi("PartnerOpenBankingKeys");

const DESCRIPTION =
  "파트너가 스스로 금융결제원 오픈뱅킹 이용기관이면 자기 키(client_id, client_secret, 이용기관 코드)를 둘 수 있습니다. 그 키는 이 파트너가 X-SVC-Business로 연 등록 세션의 오픈뱅킹 동의와 그 동의의 갱신에만 쓰이고, 파트너 자신의 워크스페이스나 다른 파트너의 세션에는 쓰이지 않습니다. 금융결제원에 등록한 Callback URL은 이 서비스의 /connect/open-banking/callback이어야 합니다. client_secret은 금고에 봉인되어 다시 보이지 않습니다. 키를 지우거나 이용기관 코드를 바꾸면 이전 키로 받은 동의는 다음 갱신에서 NO_VALID_CREDENTIAL로 끝나 다시 동의를 받아야 합니다. 관리 권한이 있는 키만 부를 수 있습니다.";

export const putRoute = managing("connections.manage", createRoute({
  method: "put",
  path: "/partner-profile/open-banking-keys",
  operationId: "setPartnerOpenBankingKeys",
  tags: ["Partners"],
  summary: "파트너의 오픈뱅킹 이용기관 키 정하기",
  description: DESCRIPTION,
  request: jsonBody(
    z.object({
      clientId: z.string().min(1).max(100),
      clientSecret: z.string().min(1).max(200).meta({ description: "봉인되어 다시 보이지 않습니다" }),
      clientUseCode: z.string().length(10).regex(/^[A-Z0-9]{10}$/).meta({ example: "M202600002" }),
    }),
  ),
  responses: {
    200: { description: "정한 키 (client_secret은 없습니다)", content: { "application/json": { schema: OpenBankingKeysSchema } } },
    ...errorResponses("MISSING_REQUIRED_PARAM", "INVALID_PARAM_FORMAT", "CONNECTION_NOT_ALLOWED_FOR_NON_PARTNER", "ADMIN_ACTION_FORBIDDEN"),
  },
}));

export const putHandler: RouteHandler<typeof putRoute, ApiEnv> = async (c) => {
  const id = partnerWorkspaceOf(c);
  const view = await setOpenBankingKeys(c.env.DB, c.env.VAULT_MASTER_KEY, id, c.req.valid("json"), Date.now());
  return c.json({ clientId: view.clientId, clientUseCode: view.clientUseCode, setAt: new Date(view.setAt).toISOString() }, 200);
};

export const deleteRoute = managing("connections.manage", createRoute({
  method: "delete",
  path: "/partner-profile/open-banking-keys",
  operationId: "removePartnerOpenBankingKeys",
  tags: ["Partners"],
  summary: "파트너의 오픈뱅킹 이용기관 키 지우기",
  description: DESCRIPTION,
  responses: {
    204: { description: "지웠습니다 (키가 없었어도 204)" },
    ...errorResponses("CONNECTION_NOT_ALLOWED_FOR_NON_PARTNER", "ADMIN_ACTION_FORBIDDEN"),
  },
}));

export const deleteHandler: RouteHandler<typeof deleteRoute, ApiEnv> = async (c) => {
  await removeOpenBankingKeys(c.env.DB, partnerWorkspaceOf(c));
  return c.body(null, 204);
};
