import { createRoute, type RouteHandler, z } from "@hono/zod-openapi";
import type { ApiEnv } from "../context";
import { currentPublicKey } from "../../domain/registration/e2e-keys";
import { code } from "../../platform/http/bounds";
import { behind } from "../../platform/http/route-fronts";

/** The current key, and the previous one while a rotation lets pages opened before it finish. */
const MAX_KEYS = 2;

export const route = behind(createRoute({
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
      content: { "application/json": { schema: z.object({ keys: z.array(z.object({ kid: code(), jwk: z.record(code(), z.unknown()) })).max(MAX_KEYS) }) } },
    },
  },
}));

export const handler: RouteHandler<typeof route, ApiEnv> = (c) => c.json({ keys: [currentPublicKey(c.env.REGISTRATION_E2E_KEYS)] }, 200);
