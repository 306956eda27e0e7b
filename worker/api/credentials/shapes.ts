import { CHECK_STATES, CREDENTIAL_STATUSES, REVOKED_REASONS } from "../../domain/credentials/tables";
import { JobErrorSchema } from "../data-jobs/shapes";
import { z } from "@hono/zod-openapi";
import { code, MAX, pathId, text, timestamp, uuid } from "../../platform/http/bounds";
import { AUTH_METHODS } from "../../domain/credentials/fields";
import { MAX_CONSENTED_SCHEMAS } from "../../domain/credentials/consent";

/** The schemas a registration asks its holder's consent for (domain/credentials/consent.ts). */
export const consentSchemasField = () =>
  z.array(code().min(1)).min(1).max(MAX_CONSENTED_SCHEMAS).optional().meta({
    description: "자격 증명으로 수집해도 된다고 소유자가 동의한 스키마. 다른 스키마의 작업은 422 CREDENTIAL_SCOPE_NOT_SUPPORTED입니다. 없으면 자격 증명이 수집할 수 있는 모든 스키마",
    example: ["bank.transactions.cb.v1"],
  });

const CertificateSummarySchema = z
  .object({
    subject: text().meta({ description: "주체 DN (RFC 4514)", example: "CN=(주)샌드박스상사()0012345678901234,OU=corporation4EC,O=SandboxSign,C=KR" }),
    issuer: text().meta({ description: "발급자 DN (RFC 4514)", example: "CN=SandboxSign Class 1,OU=AccreditedCA,O=SandboxSign,C=KR" }),
    serialNumber: z.string().max(MAX.code).meta({ description: "일련번호 (16진수 소문자)", example: "1f3c9a0b7d2e4f60a1b2c3d4e5f60718" }),
    notAfter: timestamp().meta({ description: "유효기간 끝" }),
    expiresSoon: z.boolean().meta({ description: "유효기간이 30일 안에 끝나거나 이미 끝났으면 true. 작업이 실패하기 전에 인증서 갱신을 요청하세요" }),
  })
  .openapi("CredentialCertificate");

/** A consent names a handful of accounts; KFTC lists every account a person consented to for one 이용기관. */
const MAX_CONSENTED_ACCOUNTS = 100;

const CredentialConsentSchema = z
  .object({
    accounts: z
      .array(
        z.object({
          accountNumber: z.string().max(MAX.code).meta({ description: "오픈뱅킹 핀테크이용번호(fintech_use_num): 작업의 accountNumber이자 수집 결과 레코드의 accountNumber", example: "199160020057880000000001" }),
          accountNumberFormatted: z.string().max(MAX.code).meta({ description: "금융결제원이 가려서 준 계좌번호", example: "300123-0000-***" }),
          bankCode: z.string().max(MAX.code).meta({ description: "표준 은행 코드 (bank_code_std)", example: "097" }),
          bankName: text(),
          displayName: text().nullable().meta({ description: "계좌 별칭. 없으면 null" }),
        }),
      )
      .max(MAX_CONSENTED_ACCOUNTS)
      .meta({ description: "본인이 조회에 동의한 계좌 (동의할 때 금융결제원 user/me가 준 목록)" }),
    givenAt: timestamp().meta({ description: "동의한 시각" }),
    expiresAt: timestamp().meta({ description: "동의가 끝나는 시각. 30일, 7일, 1일 전에 credential.expiring 이벤트가 가고, 끝나면 작업은 NO_VALID_CREDENTIAL로 실패합니다. 복구 세션(recoverCredentialId)으로 다시 동의를 받으세요" }),
    tokenExpiresAt: timestamp().meta({ description: "접근 토큰의 만료 시각. 서비스가 그 전에 스스로 갱신합니다" }),
    refreshedAt: timestamp().nullable().meta({ description: "마지막으로 토큰을 갱신한 시각. 갱신한 적 없으면 null" }),
  })
  .openapi("CredentialConsent");

const ConsentRecordSchema = z
  .object({
    givenAt: timestamp().meta({ description: "소유자가 동의한 시각 (복구 세션으로 다시 동의하면 그 시각)" }),
    expiresAt: timestamp().meta({ description: "동의가 끝나는 시각: 워크스페이스의 동의 기간(최대 1년), 오픈뱅킹 동의는 그 자체의 끝이 더 이르면 그때. 지나면 작업은 409 CREDENTIAL_EXPIRED이고, 30일, 7일, 1일 전에 credential.expiring 이벤트가 갑니다. 복구 세션(recoverCredentialId)으로 다시 동의를 받으세요" }),
    withdrawnAt: timestamp().nullable().meta({ description: "소유자가 관리 링크에서 동의를 철회한 시각. 철회하지 않았으면 null" }),
    onBehalfOf: z.object({
      workspaceId: uuid(),
      workspaceName: text(),
      partner: z.object({ id: uuid(), name: z.string().max(50).nullable() }).nullable().meta({ description: "등록을 요청한 파트너 (연결된 사업자 워크스페이스일 때). 아니면 null" }),
    }).meta({ description: "누구를 위해 동의했는지: 자격 증명을 가진 워크스페이스와, 요청한 파트너" }),
    providerCodes: z.array(code()).max(MAX.items).meta({ description: "이 동의로 로그인하는 기관들" }),
    schemas: z.array(code()).max(MAX.items).meta({ description: "동의한 스키마 (schemas가 null이면 이 자격 증명이 수집할 수 있는 모든 스키마)" }),
    purpose: text().meta({ description: "수집 목적" }),
    textVersion: code().nullable().meta({ description: "등록 화면이 보여 준 동의 문구의 버전. API로 직접 등록한 자격 증명은 null" }),
  })
  .openapi("CredentialConsentRecord");

export const CredentialCheckSchema = z
  .object({
    state: z.enum(CHECK_STATES).meta({
      description: "CHECKING: 기관에 로그인해 보는 중. VALID: 로그인됨. INVALID: 기관이나 사용자 환경이 거절함(error). UNKNOWN: 기관이 응답하지 않는 등 확인하지 못함(error), POST /credentials/{id}/check로 다시 확인",
    }),
    error: JobErrorSchema.nullable().meta({ description: "INVALID, UNKNOWN일 때 작업 오류와 같은 형식의 이유" }),
    checkedAt: timestamp().nullable().meta({ description: "확인이 끝난 시각. CHECKING이면 null" }),
  })
  .openapi("CredentialCheck");

/** Where a credential's check is shown: null until it was ever checked. */
export const nullableCheck = () =>
  CredentialCheckSchema.nullable().meta({ description: "등록하거나 다시 확인할 때 기관에 한 번 로그인해 본 결과 (docs/credentials.md). 확인한 적 없으면 null (전체 기관용 인증서는 확인을 요청할 때까지)" });

export const CredentialSchema = z
  .object({
    id: uuid(),
    providerCode: code().nullable().meta({ description: "로그인하는 기관. 전체 기관용 인증서(인증서를 받는 모든 기관에 씀)면 null" }),
    authMethod: z.enum(AUTH_METHODS),
    isDefault: z.boolean().meta({ description: "이 기관의 기본 자격 증명이면 true: credentialId 없이 만든 작업이 씁니다 (기관마다 하나, 전체 기관용 인증서끼리도 하나)" }),
    businessNumber: z.string().max(10).nullable().meta({ description: "자격 증명이 속한 사업자 (숫자 10자리). 사업자등록번호 없이 등록한 아이디 로그인이면 null", example: "1208800767" }),
    status: z.enum(CREDENTIAL_STATUSES),
    label: text().nullable().meta({ description: "등록할 때 붙인 이름, 없으면 가려진 식별 정보 (예: us*****od). 비밀 값은 어떤 응답에도 없습니다" }),
    certificate: CertificateSummarySchema.nullable().meta({ description: "인증서(CERTIFICATE) 자격 증명의 인증서 정보 (비밀이 아닌 값). 그 밖의 자격 증명은 null" }),
    consent: CredentialConsentSchema.nullable().meta({ description: "오픈뱅킹 동의(OPEN_BANKING) 자격 증명이면 동의한 계좌와 기한 (비밀이 아닌 값; 토큰은 금고에만 있습니다). 그 밖의 자격 증명은 null" }),
    schemas: z.array(code()).max(MAX_CONSENTED_SCHEMAS).nullable().meta({ description: "소유자가 수집에 동의한 스키마. 다른 스키마의 작업은 422 CREDENTIAL_SCOPE_NOT_SUPPORTED입니다. null이면 이 자격 증명이 수집할 수 있는 모든 스키마" }),
    consentRecord: ConsentRecordSchema.nullable().meta({ description: "소유자가 준 동의의 기록: 언제, 누구를 위해, 무엇을, 어떤 문구로, 언제까지 (docs/credentials.md). 동의 기록이 생기기 전에 등록된 자격 증명은 null" }),
    check: nullableCheck(),
    refusal: z
      .object({
        code: code().meta({ description: "기관이 로그인을 거절한 작업의 실패 코드 (LOGIN_FAILED, LOGIN_LOCKED)", example: "LOGIN_FAILED" }),
        at: timestamp(),
      })
      .nullable()
      .meta({ description: "기관이 이 자격 증명의 로그인을 거절했으면 그 코드와 시각. 이후 작업은 로그인을 시도하지 않고 이 코드로 실패합니다 (계정 잠금 방지: LOGIN_LOCKED면 기관에서 잠금을 해제한 뒤 다시 등록). 다시 등록하면 새 자격 증명이 이 자격 증명을 대체합니다. 거절되지 않았으면 null" }),
    createdAt: timestamp(),
    deletedAt: timestamp().nullable(),
    revokedReason: z.enum(REVOKED_REASONS).nullable().meta({ description: "삭제된 이유: DELETED_BY_WORKSPACE(워크스페이스가 삭제), CONNECTION_REVOKED(파트너 연결 해지), HOLDER_WITHDREW(소유자가 관리 링크에서 동의 철회, credential.revoked 이벤트). 삭제되지 않았으면 null" }),
  })
  .openapi("Credential");

export const CredentialIdParamSchema = z.object({ id: pathId().meta({ param: { name: "id", in: "path" } }) });

export const DeleteCredentialQuerySchema = z.object({
  deleteResults: z.enum(["true", "false"]).optional().meta({ description: "true면 이 자격 증명으로 수집한 끝난 작업들의 결과도 지웁니다. 기본값 false (결과는 보관 기간까지 남음)" }),
});
