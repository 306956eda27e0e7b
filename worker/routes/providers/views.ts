import { z } from "@hono/zod-openapi";
import type { ProviderDefinition } from "../../catalog/providers";
import { code, int32, MAX, timestamp } from "../../http/bounds";
import type { MaintenanceWindow } from "../../catalog/maintenance";
import { upcomingMaintenance } from "../../catalog/provider-hours";
import { isoTime } from "../../lib/iso-time";

/** A provider offers a handful of schemas and asks for a handful of credential fields. */
const MAX_SCHEMAS = 50;
const MAX_FIELDS = 50;

const AUTH_METHODS = ["PROVIDER_LOGIN", "CERTIFICATE"] as const;

/** How many of a provider's next windows it shows: today's and tomorrow's for a daily window. */
const UPCOMING_WINDOWS = 3;


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
    acceptedAuthMethods: z.array(z.enum(AUTH_METHODS)).max(AUTH_METHODS.length),
    fields: z.array(
      z.object({
        name: code(),
        label: z.string().max(MAX.name),
        authMethod: z.enum(AUTH_METHODS),
        required: z.boolean(),
        secret: z.boolean().meta({ description: "비밀 값. 화면에서 가리고 어디에도 기록하지 않습니다" }),
        pattern: z.string().max(MAX.text).meta({ description: "값 전체가 맞아야 하는 ECMAScript 정규식" }),
        input: z.enum(["text", "file"]).meta({ description: "file: 사용자가 고른 파일의 바이트를 표준 base64(패딩 포함)로 보냅니다 (인증서 파일 signCert.der, signPri.key)" }),
      }),
    ).max(MAX_FIELDS),
  })
  .openapi("CredentialSchema");

/** A provider as the catalog shows it; `clockOffset` is how far its clock runs from ours (catalog/provider-hours.ts providerClocks). */
export function providerView(p: ProviderDefinition, clockOffset: number | null, outages: readonly MaintenanceWindow[] = [], now = Date.now()) {
  return {
    code: p.code,
    name: p.name,
    kind: p.kind,
    sandbox: p.sandbox,
    verification: p.verification,
    schemas: p.schemas,
    acceptedAuthMethods: p.acceptedAuthMethods,
    maxDateRangeDays: p.maxRangeDays,
    maintenance: upcomingMaintenance(p, now, UPCOMING_WINDOWS, clockOffset, outages).map((w) => ({ startsAt: isoTime(w.startsAt), endsAt: isoTime(w.endsAt), note: w.note })),
  };
}

export function credentialSchemaView(p: ProviderDefinition) {
  return {
    providerCode: p.code,
    acceptedAuthMethods: p.acceptedAuthMethods,
    fields: p.credentialFields.map(({ name, label, authMethod, required, secret, pattern, input }) => ({ name, label, authMethod, required, secret, pattern, input })),
  };
}
