import { z } from "@hono/zod-openapi";
import { code, count, MAX, pathId, timestamp } from "../../../platform/http/bounds";
import { isoTime, isoTimeOrNull } from "../../../platform/lib/iso-time";
import type { FailureReport } from "../../../platform/errors/failure-report";
import type { ReportRow } from "../../../domain/reports/store";

export const FixRefSchema = z.string().trim().min(3).max(300).meta({ description: "고친 어댑터 변경: 커밋이나 풀 리퀘스트 주소" });

const SURPRISES = ["SCRAPING_PARSER_NOT_FOUND", "SCRAPING_RESPONSE_MALFORMED", "CERT_CRYPTO_UNAVAILABLE"] as const satisfies readonly FailureReport["surprise"][];

export const ReportSchema = z
  .object({
    id: pathId(),
    providerCode: code(),
    surprise: z
      .enum(SURPRISES)
      .meta({ description: "처음 보는 페이지, 아는 페이지의 예상 밖 내용, 또는 인증서 확인에서 런타임 암호 연산이 실패함" }),
    step: z.string().max(MAX.name).meta({ description: "login, targets <schema>, collect <schema>; 인증서 확인이면 key file: decrypt, key pair: sign, key pair: verify, virtual ID" }),
    adapterVersion: z.string().max(MAX.name),
    detail: z.string().max(MAX.text),
    url: z.string().max(MAX.url).nullable().meta({ description: "페이지 주소 (페이지처럼 가려진 것)" }),
    jobId: pathId().nullable().meta({ description: "처음 만난 작업; 작업 밖(인증서 등록)에서 난 것이면 null" }),
    requestId: z.string().max(MAX.name).nullable().meta({ description: "작업 밖에서 처음 만난 요청의 requestId" }),
    occurrences: count(),
    createdAt: timestamp(),
    lastSeenAt: timestamp(),
    expiresAt: timestamp().meta({ description: "이 때 페이지와 함께 지워집니다" }),
    closedAt: timestamp().nullable(),
    fixRef: z.string().max(300).nullable(),
  })
  .openapi("FailureReport");

export const reportView = (r: ReportRow) => ({
  id: r.id,
  providerCode: r.providerCode,
  surprise: r.surprise as FailureReport["surprise"],
  step: r.step,
  adapterVersion: r.adapterVersion,
  detail: r.detail,
  url: r.url,
  jobId: r.jobId,
  requestId: r.requestId,
  occurrences: r.occurrences,
  createdAt: isoTime(r.createdAt),
  lastSeenAt: isoTime(r.lastSeenAt),
  expiresAt: isoTime(r.expiresAt),
  closedAt: isoTimeOrNull(r.closedAt),
  fixRef: r.fixRef,
});
