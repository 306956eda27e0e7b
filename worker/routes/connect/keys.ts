import { createRoute, type RouteHandler, z } from "@hono/zod-openapi";
import type { AppEnv } from "../../env";
import { currentPublicKey } from "../../registration/e2e-keys";

export const route = createRoute({
  method: "get",
  path: "/connect/api/keys",
  operationId: "getRegistrationEncryptionKeys",
  tags: ["Hosted registration UI"],
  summary: "등록 암호화 공개 키",
  description: "브라우저가 자격 증명을 암호화할 서비스 공개 키(ECDH P-256, JWK)와 키 id. 인증 없이 공개됩니다.",
  security: [],
  responses: {
    200: {
      description: "현재 키",
      content: { "application/json": { schema: z.object({ keys: z.array(z.object({ kid: z.string(), jwk: z.record(z.string(), z.unknown()) })) }) } },
    },
  },
});

export const handler: RouteHandler<typeof route, AppEnv> = (c) => c.json({ keys: [currentPublicKey(c.env.REGISTRATION_E2E_KEYS)] }, 200);
