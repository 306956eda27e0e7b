import { z } from "@hono/zod-openapi";
import { OPERATOR_ROLES } from "../../domain/operators/tables";
import { PLANS } from "../../domain/workspaces/tables";
import { code, MAX, pathId, timestamp, uuid } from "../../platform/http/bounds";

/** Why an operator acts: required of every change and kept in the audit log with it. */
export const ReasonSchema = z.string().trim().min(5).max(500).meta({ description: "작업 사유 (5-500자). 감사 기록에 작업과 함께 남습니다" });

/** The operator's authenticator code of now, asked again before refunds and credits (domain/operators/sign-in.ts `confirmFreshCode`). */
export const FreshCodeSchema = z.string().max(6).meta({ description: "인증 앱의 지금 6자리 코드. 한 코드는 한 번만 쓰입니다(로그인에 쓴 코드도 다시 쓸 수 없습니다)" });

export const ReasonBodySchema = z.object({ reason: ReasonSchema }).openapi("AdminReason");

export const OperatorSchema = z.object({ id: uuid(), email: z.string().max(254), role: z.enum(OPERATOR_ROLES) }).openapi("Operator");

export const IdParamSchema = z.object({ id: pathId().meta({ param: { name: "id", in: "path" } }) });

export const WorkspaceSchema = z
  .object({
    id: pathId(),
    name: z.string().max(MAX.name),
    businessNumber: z.string().max(10).nullable(),
    plan: z.enum(PLANS),
    isPartner: z.boolean(),
    partnerWorkspaceId: pathId().nullable().meta({ description: "파트너의 연결 워크스페이스면 그 파트너의 워크스페이스 id" }),
    suspendedAt: timestamp().nullable(),
    createdAt: timestamp(),
  })
  .openapi("AdminWorkspace");

export const JobSummarySchema = z
  .object({
    id: pathId(),
    workspaceId: pathId(),
    providerCode: code(),
    schema: code(),
    status: z.string().max(MAX.code),
    errorCode: code().nullable(),
    errorMessage: z.string().max(MAX.text).nullable().meta({ description: "실패의 한국어 메시지" }),
    credentialId: pathId().nullable().meta({ description: "작업이 쓴 인증정보" }),
    createdAt: timestamp(),
    finishedAt: timestamp().nullable(),
  })
  .openapi("AdminJob");

export const CredentialSummarySchema = z
  .object({
    id: pathId(),
    providerCode: code(),
    authMethod: code(),
    status: code(),
    refusal: z
      .object({ code: code(), message: z.string().max(MAX.text) })
      .nullable()
      .meta({ description: "기관이 이 인증정보를 거절한 이유 (작업 실패나 마지막 로그인 확인). 상태가 ACTIVE여도 있으면 작업은 이 이유로 실패합니다" }),
    label: z.string().max(MAX.text).nullable(),
    createdAt: timestamp(),
  })
  .openapi("AdminCredential");

/** Whose a workspace is: the e-mail of its owner, whom support answers. */
export const OwnerEmailSchema = z.string().max(254).nullable().meta({ description: "워크스페이스 소유자의 이메일 (소유자가 없으면 null)" });
