import { z } from "@hono/zod-openapi";
import { AUTH_METHOD_VALUES as AUTH_METHODS, type ProviderDefinition, takesConsent } from "../../domain/catalog/providers";
import { code, count, int32, MAX, timestamp } from "../../platform/http/bounds";
import { type LiveProvider, UPCOMING_WINDOWS } from "../../domain/catalog/live";
import { isoTime } from "../../platform/lib/iso-time";
import { publicationOf } from "../../domain/catalog/publication";

/** A provider offers a handful of schemas and asks for a handful of credential fields. */
const MAX_SCHEMAS = 50;
const MAX_FIELDS = 50;


const PulseWindowSchema = z.object({
  jobs: count().meta({ description: "끝난 작업 수 (사용자 쪽 원인의 실패 포함, 자격 증명이 없어 기관에 닿지 않은 작업 제외)" }),
  successRate: z.number().min(0).max(1).nullable().meta({ description: "기관이나 서비스 쪽 원인으로 끝난 작업 중 성공 비율. 그런 작업이 없으면 null" }),
  medianDurationMs: count().nullable().meta({ description: "성공한 작업의 생성부터 끝까지 걸린 시간의 중앙값 (구간 상한, ms). 성공이 없으면 null" }),
});


export const ProviderSchema = z
  .object({
    code: code(),
    name: z.string().max(MAX.name),
    kind: z.enum(["BANK", "TAX_PORTAL", "CARD"]),
    sandbox: z.boolean(),
    verification: z.enum(["sandbox", "replica", "live"]).meta({
      description: "sandbox: 샌드박스 기관. replica: 실제 기관의 프로토콜 복제본으로 검증됨(실기관 확인 전). live: 실제 기관에서 확인되어 문서에 날짜와 함께 기록됨",
    }),
    schemas: z.array(code()).max(MAX_SCHEMAS),
    acceptedAuthMethods: z.array(z.enum(AUTH_METHODS)).max(AUTH_METHODS.length),
    maxDateRangeDays: int32(1, 3660).meta({ description: "한 작업의 최대 조회 기간(일). 넘으면 DATE_RANGE_EXCEEDED" }),
    freshness: z
      .array(
        z.object({
          schema: code(),
          lag: z.enum(["AT_COLLECTION", "NEXT_MONTH"]).meta({ description: "AT_COLLECTION: 수집 시점에 기관이 보여 주는 자료. NEXT_MONTH: 매월 자료를 다음 달 publishedFromDay일 무렵부터 기관이 보여 줍니다" }),
          publishedFromDay: int32(1, 31).nullable().meta({ description: "NEXT_MONTH일 때 한 달 자료가 공개되는 다음 달의 날짜(한국 시간). 그 밖에는 null" }),
          note: z.string().max(MAX.name),
        }),
      )
      .max(MAX_SCHEMAS)
      .meta({
        description:
          "확장 필드. schema마다 자료가 얼마나 늦게 기관에 올라오는지. 아직 공개되지 않은 달이 조회 기간에 들면 작업의 unpublishedFrom이 그 첫날을 알려 줍니다: 그 뒤의 0건은 '사용 없음'이 아니라 '아직 공개 전'입니다 (docs/institutions/hometax.md)",
      }),
    status: z
      .object({
        state: z.enum(["OPERATIONAL", "DEGRADED", "DOWN", "MAINTENANCE"]),
        lastHour: PulseWindowSchema,
        lastDay: PulseWindowSchema,
      })
      .meta({
        description:
          "확장 필드. 작업 결과로 본 기관 상태: 점검 중이면 MAINTENANCE, 아니면 최근 1시간(작업이 5개 미만이면 24시간) 성공률이 50% 미만이면 DOWN, 90% 미만이면 DEGRADED, 그 밖에는 OPERATIONAL. 비밀번호 오류처럼 사용자 쪽 원인의 실패는 성공률에 넣지 않습니다 (docs/operations.md)",
      }),
    maintenance: z
      .array(z.object({ startsAt: timestamp(), endsAt: timestamp(), note: z.string().max(MAX.name) }))
      .max(UPCOMING_WINDOWS)
      .meta({
        description:
          "확장 필드. 다가오는 기관 점검 시간(기관이 정기적으로 공지한 것과 운영자가 등록한 임시 장애·점검). 이 시간에 걸리는 작업은 점검이 끝날 때까지 기다렸다가 진행하고(maintenanceUntil), 기다리면 maxWaitSeconds를 넘기면 PROVIDER_TIME_WINDOW로 실패합니다. 공지된 점검이 없으면 빈 배열 (docs/scheduling.md)",
      }),
  })
  .openapi("Provider");

export const CredentialSchemaSchema = z
  .object({
    providerCode: code(),
    acceptedAuthMethods: z.array(z.enum(AUTH_METHODS)).max(AUTH_METHODS.length).meta({
      description: "PROVIDER_LOGIN, CERTIFICATE: 필드를 입력해 등록. OPEN_BANKING: 입력할 필드 없이, 등록 세션(kind PROVIDER_LOGIN)의 화면에서 본인이 금융결제원 오픈뱅킹 동의 화면으로 가서 동의하면 등록됩니다 (docs/credentials.md)",
    }),
    consent: z.boolean().meta({ description: "확장 필드. true: 이 기관의 자격 증명은 입력 값이 아니라 본인의 동의(오픈뱅킹)이며 fields는 비어 있습니다. 등록 세션으로만 등록합니다" }),
    fields: z.array(
      z.object({
        name: code(),
        label: z.string().max(MAX.name),
        authMethod: z.enum(AUTH_METHODS),
        required: z.boolean(),
        secret: z.boolean().meta({ description: "비밀 값. 화면에서 가리고 어디에도 기록하지 않습니다" }),
        pattern: z.string().max(MAX.text).meta({ description: "값 전체가 맞아야 하는 ECMAScript 정규식" }),
        input: z.enum(["text", "file", "select"]).meta({
          description: "file: 사용자가 고른 파일의 바이트를 표준 base64(패딩 포함)로 보냅니다 (인증서 파일 signCert.der, signPri.key). select: options의 value 중 하나 (간편인증 앱, 통신사)",
        }),
        options: z
          .array(z.object({ value: code(), label: z.string().max(MAX.name) }))
          .max(MAX.items)
          .optional()
          .meta({ description: "input이 select일 때 고를 수 있는 값과 그 이름" }),
      }),
    ).max(MAX_FIELDS),
  })
  .openapi("CredentialSchema");

/** A provider as the catalog shows it, with its live side (domain/catalog/live.ts). */
export function providerView(p: ProviderDefinition, live: LiveProvider) {
  return {
    code: p.code,
    name: p.name,
    kind: p.kind,
    sandbox: p.sandbox,
    verification: p.verification,
    schemas: p.schemas,
    acceptedAuthMethods: p.acceptedAuthMethods,
    maxDateRangeDays: p.maxRangeDays,
    freshness: p.schemas.map((schema) => ({ schema, ...publicationOf(p, schema) })),
    status: live.status,
    maintenance: live.maintenance.map((w) => ({ startsAt: isoTime(w.startsAt), endsAt: isoTime(w.endsAt), note: w.note })),
  };
}

export function credentialSchemaView(p: ProviderDefinition) {
  return {
    providerCode: p.code,
    acceptedAuthMethods: p.acceptedAuthMethods,
    consent: takesConsent(p),
    fields: p.credentialFields.map(({ name, label, authMethod, required, secret, pattern, input, options }) => ({ name, label, authMethod, required, secret, pattern, input, ...(options ? { options } : {}) })),
  };
}
