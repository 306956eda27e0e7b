import { z } from "@hono/zod-openapi";
import type { LoginCheckState } from "../../domain/registration/login-check";
import { uuid } from "../../platform/http/bounds";
import { HolderApprovalSchema } from "../data-jobs/shapes";

/** Where a submitted login stands, as the hosted page's submission and its checks answer it. */
export const CheckStateSchema = z
  .object({
    sessionId: uuid(),
    state: z.enum(["CONNECTED", "CHECKING", "AWAITING_HOLDER"]).meta({
      description: "CONNECTED: 기관이 들여보내 자격 증명을 저장했습니다(세션 CONSUMED). CHECKING: 기관에서 확인 중입니다. AWAITING_HOLDER: 본인의 휴대폰 승인을 기다립니다(awaiting)",
    }),
    status: z.enum(["CONSUMED", "PENDING"]).meta({ description: "세션의 상태" }),
    awaiting: HolderApprovalSchema.optional().meta({ description: "AWAITING_HOLDER일 때: 승인을 요청한 앱과 요청이 유효한 시각(until)" }),
  })
  .openapi("HostedRegistrationCheck");

export function checkAnswer(state: LoginCheckState): z.infer<typeof CheckStateSchema> {
  if (state.state === "CONNECTED") return { sessionId: state.session.id, state: "CONNECTED", status: "CONSUMED" };
  return { sessionId: state.sessionId, state: state.state, status: "PENDING", ...(state.state === "AWAITING_HOLDER" ? { awaiting: state.awaiting } : {}) };
}
