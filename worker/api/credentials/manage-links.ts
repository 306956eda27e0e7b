import { createRoute, type RouteHandler, z } from "@hono/zod-openapi";
import { findCredential } from "../../domain/credentials/store";
import { createManageLink, DEFAULT_MANAGE_LINK_SECONDS, MAX_MANAGE_LINK_SECONDS, MIN_MANAGE_LINK_SECONDS } from "../../domain/consent-withdrawal/manage-link";
import { MANAGE_LINK_MAILS_PER_DAY, mailManageLink } from "../../domain/consent-withdrawal/mail-link";
import { email } from "../../domain/users/inputs";
import { type ApiEnv, principalOf } from "../context";
import { errorResponses } from "../../platform/http/error-responses";
import { MAX, timestamp } from "../../platform/http/bounds";
import { kst } from "../../web/kst";
import { publicOrigin } from "../../platform/configuration";
import { CredentialIdParamSchema } from "./shapes";
import { managingBusiness } from "../guards";

const BodySchema = z
  .object({
    expiresInSeconds: z
      .number()
      .int()
      .min(MIN_MANAGE_LINK_SECONDS)
      .max(MAX_MANAGE_LINK_SECONDS)
      .default(DEFAULT_MANAGE_LINK_SECONDS)
      .meta({ format: "int32", description: "링크가 유효한 시간(초). 60초부터 24시간(86400초)까지, 기본 1시간", example: 3600 }),
    mailTo: email().optional().meta({ description: "주면 이 주소로 링크를 메일로 보냅니다 (자격 증명 소유자의 주소)", example: "owner@example.com" }),
  })
  .openapi("CreateManageLinkRequest");

const ManageLinkSchema = z
  .object({
    url: z.url().max(MAX.url).meta({
      description: "자격 증명 소유자가 무엇을 누구와 언제까지 공유하는지 보고 동의를 철회하는 페이지. 이 자격 증명에만 쓰이고, 철회하면 더는 열리지 않습니다. 소유자에게만 보여 주세요",
      example: "https://api.example.com/manage/k1.eyJjIjoi...In0.dGhpcyBpcyBub3QgYSByZWFsIE1BQw",
    }),
    expiresAt: timestamp().meta({ description: "링크가 만료되는 시각 (UTC)" }),
    mailedTo: z.string().max(254).nullable().meta({ description: "링크를 메일로 보낸 주소. 보내지 않았으면 null" }),
  })
  .openapi("ManageLink");

export const route = managingBusiness("credentials.manage", createRoute({
  method: "post",
  path: "/credentials/{id}/manage-links",
  operationId: "createCredentialManageLink",
  tags: ["Credentials"],
  summary: "소유자용 관리 링크 만들기",
  description:
    `자격 증명의 소유자(최종 사용자)가 API 키 없이 여는 짧은 수명의 서명된 링크를 만듭니다 (만든 API 키보다 오래 유효하지 않고, 그 키가 폐기되거나 사업자 연결이 해지되거나 워크스페이스가 정지되면 열리지 않습니다). 파트너는 자기 서비스 화면에 보여 주거나, mailTo로 서비스가 메일로 보내게 할 수 있습니다 (워크스페이스마다 하루 ${MANAGE_LINK_MAILS_PER_DAY}통까지, 넘으면 429 API_RATE_LIMITED; 이메일을 확인하지 않은 워크스페이스는 403 WORKSPACE_ACCESS_DENIED). 페이지는 공유하는 기관과 자료, 누구를 위해, 언제부터 언제까지인지 보여 주고, 한 번 확인하면 동의를 철회합니다: 비밀 값과 이 자격 증명으로 모은 결과는 바로 지워지고 credential.revoked 이벤트(revokedReason HOLDER_WITHDREW)가 갑니다 (docs/credentials.md).`,
  request: {
    params: CredentialIdParamSchema,
    body: { required: false, content: { "application/json": { schema: BodySchema } } },
  },
  responses: {
    201: { description: "만든 링크", content: { "application/json": { schema: ManageLinkSchema } } },
    ...errorResponses("INVALID_PARAM_FORMAT", "CREDENTIAL_NOT_FOUND", "CREDENTIAL_SUPERSEDED", "WORKSPACE_ACCESS_DENIED", "API_RATE_LIMITED"),
  },
}));

export const handler: RouteHandler<typeof route, ApiEnv> = async (c) => {
  const principal = principalOf(c);
  const credential = await findCredential(c.env.DB, principal.workspaceId, c.req.valid("param").id);
  // The body is optional: without one the validator hands over {} as it is, so the default is applied here.
  const { expiresInSeconds, mailTo } = BodySchema.parse(c.req.valid("json") ?? {});
  const now = Date.now();
  const link = await createManageLink(c.env, publicOrigin(c.env, c.req.url), credential, principal, expiresInSeconds, now);
  const requester = credential.consentRecord?.partner?.name ?? credential.consentRecord?.workspaceName ?? "데이터 수집 서비스";
  // The key's own workspace sends (a partner's, whichever business it selected), so its day's bound covers them all.
  if (mailTo) await mailManageLink(c.env, principal.keyWorkspaceId, mailTo, link, requester, kst(Date.parse(link.expiresAt)), now);
  return c.json({ url: link.url, expiresAt: link.expiresAt, mailedTo: mailTo ?? null }, 201);
};
