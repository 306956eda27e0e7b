import { z } from "@hono/zod-openapi";
import { allSchemas } from "../../domain/catalog/schemas";
import { JOB_KIND_HEADER, XLSX_MEDIA_TYPE } from "../../domain/results/download";
import { JOB_ERROR_CATEGORIES, JOB_ERROR_CODES } from "../../../contracts/job-failures";
import { SIMPLE_AUTH_PROVIDERS } from "../../../contracts/task-unit";
import { code, count, cursor, MAX, text, timestamp, uuid } from "../../platform/http/bounds";

export const JobErrorSchema = z
  .object({
    category: z.enum(JOB_ERROR_CATEGORIES),
    code: z.enum(JOB_ERROR_CODES).meta({ description: "카탈로그의 안정적인 식별자. 매핑되지 않은 값은 UNKNOWN" }),
    message: text().meta({ description: "다음 조치를 포함한 한국어 안내" }),
    retryable: z.boolean().meta({ description: "true면 같은 요청을 안전하게 다시 보낼 수 있습니다" }),
    retryAfterSeconds: count().nullable().optional().meta({ description: "LOCK_CONTENTION이면 항상 120" }),
  })
  .openapi("JobError");

const credentialIdField = uuid().nullable().meta({ description: "작업이 로그인에 쓰는(쓴) 자격 증명. 자격 증명 없이 태어나 실패한 작업이면 null" });

const resultsExpireAtField = timestamp()
  .optional()
  .meta({
    description:
      "확장 필드. 끝난 작업의 결과(JSON, CSV, 다운로드 링크)를 읽을 수 있는 마지막 시각: 작업이 끝난 시각에 워크스페이스의 결과 보관 기간(GET /results-retention)을 더한 값이며, 결과를 먼저 지웠으면 지운 시각입니다. 지난 뒤 결과는 410 DATA_JOB_RESULTS_DELETED이고 작업 정보는 남습니다 (docs/retention.md)",
  });

const common = {
  id: uuid(),
  providerCode: code(),
  schema: code(),
  credentialId: credentialIdField,
  suggestedPollIntervalMs: count().meta({ description: "권장 폴링 간격(ms), 기본 5000" }),
  maxWaitSeconds: count().meta({ description: "자동 재개를 포함해 종료 상태까지 기다릴 상한(초)" }),
  unpublishedFrom: z.iso
    .date()
    .max(10)
    .optional()
    .meta({
      description:
        "확장 필드. 조회 기간 가운데 작업을 요청한 때 기관이 아직 공개하지 않은 첫날(YYYY-MM-DD, 한국 시간). 그날부터의 자료는 아직 없을 수 있으니 0건을 '사용 없음'으로 읽지 마세요. 모두 공개된 기간이면 없습니다 (GET /providers/{code}의 freshness)",
    }),
};

/** A login waiting for its holder's approval on their phone (간편인증, docs/institutions/hometax.md): what the partner tells its user. */
export const HolderApprovalSchema = z
  .object({
    method: z.literal("SIMPLE_AUTH").meta({ description: "간편인증: 본인이 휴대폰 앱에서 로그인을 승인합니다" }),
    provider: z.enum(SIMPLE_AUTH_PROVIDERS).meta({ description: "승인을 요청한 간편인증 앱 (kakao, naver, pass, toss …)" }),
    since: timestamp().meta({ description: "앱에 승인을 요청한 시각" }),
    until: timestamp().meta({ description: "이 시각까지 승인하지 않으면 작업은 LOGIN_SECOND_FACTOR_REQUIRED로 실패합니다 (약 5분)" }),
  })
  .meta({
    description:
      "확장 필드. 작업의 로그인이 자격 증명 주인의 휴대폰 승인을 기다리는 동안만 있습니다: 사용자에게 휴대폰의 앱(provider)을 열어 승인하라고 알려 주세요. 승인하면 작업은 스스로 이어지고, 같은 로그인은 포털이 세션을 유지하는 동안(약 25분) 같은 자격 증명의 다음 작업에도 쓰입니다. 거부하면 LOGIN_FAILED, 시간이 지나면 LOGIN_SECOND_FACTOR_REQUIRED로 실패하며 둘 다 retryable=false입니다(자동 재시도가 휴대폰에 요청을 거듭 보내지 않도록). 처음 요청할 때 data_job.awaiting_holder 웹훅이 갑니다",
  })
  .openapi("HolderApproval");

export const InProgressJobSchema = z
  .object({
    kind: z.literal("InProgress"),
    ...common,
    phase: z.enum(["PENDING", "RUNNING"]),
    completedTaskCount: count(),
    totalTaskCount: count().meta({ description: "대상이 정해지기 전에는 0" }),
    queuePosition: count().optional().meta({
      description:
        "확장 필드. 같은 자격 증명의 다른 작업이 끝나기를 기다리는 동안(PENDING) 앞선 작업 수: 0이면 다음 차례로 곧 시작합니다. 기다리지 않으면 없습니다. 같은 자격 증명의 작업은 도착 순서대로 하나씩 돌고, 앞선 작업들 때문에 maxWaitSeconds 안에 끝날 수 없으면 LOCK_CONTENTION으로 실패합니다 (docs/scheduling.md)",
      example: 2,
    }),
    maintenanceUntil: timestamp().optional().meta({
      description:
        "확장 필드. 기관의 점검 시간(GET /providers/{code}의 maintenance)을 기다리는 동안 작업이 다시 진행되는 시각. 점검이 끝난 뒤 maxWaitSeconds 안에 끝날 수 없으면 기다리지 않고 PROVIDER_TIME_WINDOW로 실패합니다 (docs/scheduling.md)",
    }),
    awaitingHolder: HolderApprovalSchema.optional(),
  })
  .openapi("InProgressDataJob");

export const SucceededJobSchema = z
  .object({
    kind: z.literal("Succeeded"),
    ...common,
    recordCount: count(),
    since: z
      .string()
      .max(512)
      .optional()
      .meta({
        description:
          "확장 필드. 기간이 있는 schema의 작업에만 있습니다: 다음 작업의 params.since로 주면 이 작업 이후 바뀐 레코드만 수집합니다 (docs/scheduling.md)",
      }),
    resultsExpireAt: resultsExpireAtField,
  })
  .openapi("SucceededDataJob");

export const FailedJobSchema = z.object({ kind: z.literal("Failed"), ...common, error: JobErrorSchema, resultsExpireAt: resultsExpireAtField }).openapi("FailedDataJob");

export const DataJobSchema = z
  .discriminatedUnion("kind", [InProgressJobSchema, SucceededJobSchema, FailedJobSchema])
  .openapi("DataJob");

const listCommon = { id: uuid(), providerCode: code(), schema: code(), credentialId: credentialIdField };

export const DataJobListItemSchema = z
  .discriminatedUnion("kind", [
    z.object({ kind: z.literal("InProgress"), ...listCommon, awaitingHolder: HolderApprovalSchema.optional() }),
    z.object({ kind: z.literal("Succeeded"), ...listCommon }),
    z.object({ kind: z.literal("Failed"), ...listCommon, error: JobErrorSchema }),
  ])
  .openapi("DataJobListItem");

export const DataJobPageSchema = z
  .object({
    items: z.array(DataJobListItemSchema).max(100),
    nextCursor: cursor().nullable().meta({ description: "다음 페이지 커서. 마지막 페이지면 null" }),
  })
  .openapi("DataJobPage");

export const CreateDataJobBodySchema = z
  .object({
    providerCode: code().min(1).meta({ example: "sandbox.bank" }),
    schema: code().min(1).meta({ example: "bank.transactions.cb.v1" }),
    params: z
      .record(z.string(), z.unknown())
      .optional()
      .meta({ description: "스키마의 요청 필드. GET /api/v1/schemas/{schema} 참고", example: { dateRangeStart: "2026-01-01", dateRangeEnd: "2026-03-31" } }),
    credentialId: uuid().optional().meta({
      description:
        "로그인에 쓸 자격 증명. 없으면 이 기관의 자격 증명이 하나일 때 그것, 여럿이면 기본 자격 증명(없으면 409 CREDENTIAL_PROVIDER_DUPLICATED). 다른 기관의 것이면 400 PROVIDER_CODE_MISMATCH, 전체 기관용 인증서를 인증서를 받지 않는 기관에 쓰면 422 CREDENTIAL_INSUFFICIENT_FOR_PROVIDER. connectionId와 함께 보낼 수 없습니다",
    }),
    deliveryRouteId: uuid().optional().meta({
      description: "확장 필드. 작업이 성공하면 결과(CSV, JSON, manifest)를 보낼 전달 경로 (POST /api/v1/delivery-routes). 없거나 지워진 경로는 400 DELIVERY_ROUTE_NOT_FOUND (docs/operations.md)",
    }),
    connectionId: uuid().optional().meta({
      description: "파트너가 대신 일할 사업자의 연결 (X-SVC-Business 헤더 대신). 그 사업자의 기본 자격 증명을 씁니다. 파트너가 아닌 워크스페이스는 보낼 수 없습니다(400 CONNECTION_NOT_ALLOWED_FOR_NON_PARTNER)",
    }),
  })
  .openapi("CreateDataJobRequest");

export const JobIdParamSchema = z.object({
  id: z.string().max(MAX.id).meta({ param: { name: "id", in: "path" }, description: "작업 id (uuid)" }),
});

export const ResultsSchema = z
  .object({
    data: z.array(z.union(allSchemas().map((d) => d.record))).meta({
      description:
        "schema에 따른 레코드. 모든 레코드는 판별 필드 schema를 가집니다. 증분 작업(params.since)은 끝난 뒤 바뀐 레코드만 돌려주며, 각 레코드에 확장 필드 change(added, modified, removed)가 마지막 필드로 더해집니다 (CSV에서는 마지막 열 '변경')",
    }),
    jobId: uuid(),
    schema: code(),
    totalCount: count().meta({ description: "지금까지 수집된 레코드 수" }),
  })
  .openapi("DataJobResults");

export const ResultsDeletionSchema = z
  .object({
    jobId: uuid(),
    recordCount: count().meta({ description: "지워진 레코드 수" }),
    deletedAt: timestamp().meta({ description: "결과가 지워진(보관 기간이 끝난) 시각. 작업의 resultsExpireAt과 같습니다" }),
    reason: z.enum(["REQUESTED", "CREDENTIAL_DELETED", "EXPIRED"]).meta({
      description: "REQUESTED: DELETE /data-jobs/{id}/results로, CREDENTIAL_DELETED: 자격 증명을 deleteResults=true로 지울 때 함께, EXPIRED: 보관 기간이 끝나",
    }),
  })
  .openapi("DataJobResultsDeletion");

/** The header of every answer carrying results or a link to them (domain/results/edge-cache.ts RESULTS_CACHE_CONTROL). */
export const NO_STORE_HEADERS = {
  "Cache-Control": {
    description: "no-store, private: 결과는 브라우저, 프록시, CDN 어디에도 저장하지 않습니다 (진행 중인 결과는 늘어나고, 지우거나 키를 폐기하면 바로 막혀야 합니다)",
    required: true,
    schema: { type: "string" as const, enum: ["no-store, private"] },
  },
};

const CSV_DESCRIPTION =
  "UTF-8(BOM 포함) RFC 4180 CSV. 머리글은 레코드 필드의 한국어 표시 이름입니다. =, +, -, @, 탭, CR로 시작하는 문자열 셀은 수식으로 실행되지 않도록 앞에 작은따옴표를 붙입니다. 작업이 진행 중이면 끝난 작업 단위까지의 부분 결과입니다.";
const XLSX_DESCRIPTION =
  "Excel 통합 문서(.xlsx). 열과 머리글은 CSV와 같습니다 (레코드 필드의 한국어 표시 이름, 같은 순서). 승인번호·계좌번호 같은 문자열은 텍스트 셀(앞자리 0 유지, 지수 표기 없음), 금액은 숫자 셀, 날짜는 날짜 셀(yyyy-mm-dd), 일시는 한국 시각의 날짜 셀(yyyy-mm-dd hh:mm:ss)입니다. 문자열 셀은 수식으로 실행되지 않습니다. 한 시트에 1,048,575행을 넘으면 다음 시트(결과 2, …)로 이어집니다. 작업이 진행 중이면 끝난 작업 단위까지의 부분 결과입니다.";

/** The headers of a results file: results.csv, results.xlsx and download links send the same. */
const resultFileHeaders = (extensions: string) => ({
  // Header objects rather than a zod object, so the rate headers join them (platform/http/rate-headers.ts).
  ...NO_STORE_HEADERS,
  [JOB_KIND_HEADER]: {
    description: "작업의 kind. InProgress면 지금까지 끝난 작업 단위의 부분 결과입니다",
    required: true,
    schema: { type: "string" as const, enum: ["InProgress", "Succeeded", "Failed"] },
  },
  "X-Total-Count": {
    description: "파일에 담긴 레코드 수 (10진수)",
    required: true,
    schema: { type: "string" as const, pattern: "^[0-9]{1,16}$", maxLength: 16, example: "42" },
  },
  "Content-Disposition": {
    description: `내려받을 파일 이름 \`<schema>-<작업 id>.${extensions}\``,
    required: true,
    schema: { type: "string" as const, maxLength: MAX.code + 64, example: `attachment; filename="bank.transactions.cb.v1-0b5d7a1e-3f7c-4a51-9a43-2f1e8c9d6b70.${extensions.split("|")[0]}"` },
  },
});

/** The 200 of a CSV download: results.csv and download links serve the same bytes with the same headers. */
export const CSV_RESULTS_RESPONSE = {
  description: CSV_DESCRIPTION,
  headers: resultFileHeaders("csv"),
  content: { "text/csv;charset=UTF-8": { schema: z.string() } },
};

/** The 200 of an Excel download: results.xlsx and download links made with format xlsx. */
export const XLSX_RESULTS_RESPONSE = {
  description: XLSX_DESCRIPTION,
  headers: resultFileHeaders("xlsx"),
  content: { [XLSX_MEDIA_TYPE]: { schema: z.string().meta({ format: "binary" }) } },
};

/** A download link serves the file it was made for: the CSV, or the workbook (format xlsx). */
export const LINKED_RESULTS_RESPONSE = {
  description: `링크를 만들 때 고른 형식의 파일. csv: ${CSV_DESCRIPTION} xlsx: ${XLSX_DESCRIPTION}`,
  headers: resultFileHeaders("csv|xlsx"),
  content: { ...CSV_RESULTS_RESPONSE.content, ...XLSX_RESULTS_RESPONSE.content },
};
