import { z } from "@hono/zod-openapi";
import { MAX, timestamp } from "../../platform/http/bounds";

/** A link's token is about 300 characters (key id, claims, MAC); anything far longer is no token. */
const MAX_LINK_TOKEN_LENGTH = 1024;
import { DEFAULT_LINK_SECONDS, MAX_LINK_SECONDS, MIN_LINK_SECONDS } from "../../domain/download-links/links";
import { RESULT_FILES } from "../../domain/results/download";

export const CreateDownloadLinkBodySchema = z
  .object({
    expiresInSeconds: z
      .number()
      .int()
      .min(MIN_LINK_SECONDS)
      .max(MAX_LINK_SECONDS)
      .default(DEFAULT_LINK_SECONDS)
      .meta({ format: "int32", description: "링크가 유효한 시간(초). 60초부터 7일(604800초)까지, 기본 1시간. 링크를 만든 API 키의 만료 시각을 넘지 않습니다", example: 86400 }),
    format: z
      .enum(RESULT_FILES)
      .default("csv")
      .meta({ description: "링크가 내려줄 파일: csv(기본, results.csv와 같은 바이트) 또는 xlsx(results.xlsx와 같은 Excel 파일)", example: "xlsx" }),
  })
  .openapi("CreateDownloadLinkRequest");

export const DownloadLinkSchema = z
  .object({
    url: z.url().max(MAX.url).meta({
      description: "API 키 없이 작업의 CSV(또는 Excel 파일)를 내려받는 주소. 가진 사람 누구나 내려받을 수 있으니 API 키처럼 다뤄 주세요",
      example: "https://api.example.com/api/v1/download-links/k1.eyJqIjoi...In0.dGhpcyBpcyBub3QgYSByZWFsIE1BQw",
    }),
    expiresAt: timestamp().meta({ description: "링크가 만료되는 시각 (UTC)", example: "2026-01-31T09:00:00.000Z" }),
  })
  .openapi("DownloadLink");

export const DownloadTokenParamSchema = z.object({
  token: z.string().max(MAX_LINK_TOKEN_LENGTH).meta({ param: { name: "token", in: "path" }, description: "링크의 서명된 토큰 (POST /api/v1/data-jobs/{id}/download-links가 돌려준 url의 마지막 부분)" }),
});
