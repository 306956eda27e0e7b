import { z } from "@hono/zod-openapi";
import { code, count, MAX, pathId, timestamp } from "../../../http/bounds";
import { isoTime, isoTimeOrNull } from "../../../lib/iso-time";
import type { ReportRow } from "../../../reports/store";

export const FixRefSchema = z.string().trim().min(3).max(300).meta({ description: "고친 어댑터 변경: 커밋이나 풀 리퀘스트 주소" });

export const ReportSchema = z
  .object({
    id: pathId(),
    providerCode: code(),
    surprise: z.enum(["SCRAPING_PARSER_NOT_FOUND", "SCRAPING_RESPONSE_MALFORMED"]).meta({ description: "처음 보는 페이지, 또는 아는 페이지의 예상 밖 내용" }),
    step: z.string().max(MAX.name).meta({ description: "login, targets <schema>, collect <schema>" }),
    adapterVersion: z.string().max(MAX.name),
    detail: z.string().max(MAX.text),
    url: z.string().max(MAX.url).nullable().meta({ description: "페이지 주소 (페이지처럼 가려진 것)" }),
    jobId: pathId().meta({ description: "처음 만난 작업" }),
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
  surprise: r.surprise as "SCRAPING_PARSER_NOT_FOUND" | "SCRAPING_RESPONSE_MALFORMED",
  step: r.step,
  adapterVersion: r.adapterVersion,
  detail: r.detail,
  url: r.url,
  jobId: r.jobId,
  occurrences: r.occurrences,
  createdAt: isoTime(r.createdAt),
  lastSeenAt: isoTime(r.lastSeenAt),
  expiresAt: isoTime(r.expiresAt),
  closedAt: isoTimeOrNull(r.closedAt),
  fixRef: r.fixRef,
});
