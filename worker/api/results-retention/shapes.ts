import { z } from "@hono/zod-openapi";
import { PLANS } from "../../domain/workspaces/tables";
import { int32 } from "../../platform/http/bounds";

/** Far past any plan's maximum: the schema bounds the number; the plan's maximum is the domain's check (400 with its Korean message). */
export const DAYS_BOUND = 3650;

export const ResultsRetentionSchema = z
  .object({
    plan: z.enum(PLANS),
    days: int32(1, DAYS_BOUND).meta({ description: "지금 끝나는 작업의 결과를 보관하는 일수: 정한 값, 없으면 플랜 기본값 (플랜 최대값을 넘지 않음)", example: 30 }),
    chosenDays: int32(1, DAYS_BOUND).nullable().meta({ description: "워크스페이스가 정한 일수. 정하지 않았으면 null(플랜 기본값)" }),
    defaultDays: int32(1, DAYS_BOUND).meta({ description: "플랜 기본값" }),
    maxDays: int32(1, DAYS_BOUND).meta({ description: "플랜이 허용하는 최대 일수" }),
  })
  .openapi("ResultsRetention");

export const ResultsRetentionUpdateSchema = z
  .object({
    days: z.number().max(DAYS_BOUND).nullable().meta({ description: "1부터 플랜 최대값까지의 정수(일). null이면 플랜 기본값으로 되돌립니다", example: 90 }),
  })
  .openapi("ResultsRetentionUpdate");
