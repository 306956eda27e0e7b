import { z } from "@hono/zod-openapi";
import { PLANS } from "../workspaces/tables";

export const PlanSchema = z.enum(PLANS).meta({ description: "FREE: 무료, PRO: 유료, INTERNAL: 운영자가 주는 내부 플랜(구매 불가)" });
export const ChangePlanBodySchema = z.object({ plan: PlanSchema }).openapi("ChangePlanRequest");

const digits = (pattern: RegExp, description: string) => z.string().max(32).regex(pattern).meta({ description });

export const CreatePaymentMethodBodySchema = z
  .object({
    card: z.object({
      number: z
        .string()
        .max(32)
        .regex(/^[\d -]+$/)
        .transform((v) => v.replace(/\D/g, ""))
        .pipe(z.string().min(12).max(19))
        .meta({ description: "카드 번호(띄어쓰기와 -는 무시). 결제대행사에만 전달하고 저장하지 않습니다" }),
      expiryYear: digits(/^\d{2}$/, "유효기간 연도 두 자리"),
      expiryMonth: digits(/^(0[1-9]|1[0-2])$/, "유효기간 월 두 자리"),
      birthOrBusinessRegistrationNumber: digits(/^(\d{6}|\d{10})$/, "개인카드는 생년월일 6자리, 법인카드는 사업자등록번호 10자리"),
      passwordTwoDigits: digits(/^\d{2}$/, "카드 비밀번호 앞 두 자리"),
    }),
  })
  .openapi("CreatePaymentMethodRequest");
