import { z } from "@hono/zod-openapi";
import { code, int32, uuid } from "../../platform/http/bounds";

const MAX_CRON = 100;
/** As far back as a provider lets one job reach (the catalog's widest maxRangeDays). */
const MAX_LAST_DAYS = 366;

export const cron = z.string().min(1).max(MAX_CRON).meta({ description: "다섯 필드(분 시 일 월 요일) cron, 한국 시간(Asia/Seoul). 예: 0 3 * * * (매일 03:00)", example: "0 3 * * *" });
export const params = z.record(z.string(), z.unknown()).meta({ description: "기간을 뺀 schema의 요청 필드 (계좌, 카드, 통화). 기간은 lastDays로 정합니다", example: {} });
export const lastDays = int32(1, MAX_LAST_DAYS).meta({ description: "기간이 있는 schema: 각 실행이 실행일(한국 날짜)까지 며칠을 수집할지. 1이면 그날 하루", example: 7 });
export const incremental = z.boolean().meta({ description: "기간이 있는 schema: 성공한 실행 다음부터는 그 실행의 since로 바뀐 레코드만 수집합니다 (docs/scheduling.md)" });

export const CreateScheduleBodySchema = z
  .object({
    providerCode: code().min(1).meta({ example: "sandbox.bank" }),
    schema: code().min(1).meta({ example: "bank.transactions.cb.v1" }),
    deliveryRouteId: uuid().optional().meta({ description: "확장 필드. 실행마다 성공한 결과를 보낼 전달 경로. 없는 경로는 400 DELIVERY_ROUTE_NOT_FOUND" }),
    credentialId: uuid().optional().meta({ description: "로그인에 쓸 자격 증명. 없으면 실행마다 이 기관의 자격 증명이 하나일 때 그것, 여럿이면 기본 자격 증명" }),
    cron,
    params: params.optional(),
    lastDays: lastDays.optional(),
    incremental: incremental.optional(),
  })
  .openapi("CreateScheduleRequest");
