import type { JobError, JobErrorCategory, JobErrorCode } from "../../contracts/job-failures";

/** What a person can do about a failure, by its category (the message itself already says it in words). */
const NEXT_ACTION: Record<JobErrorCategory, string> = {
  CREDENTIAL: "자격 증명을 확인한 뒤 다시 등록하고 새로 수집해 주세요.",
  CREDENTIAL_MISSING: "이 기관의 자격 증명을 등록한 뒤 새로 수집해 주세요.",
  USER_ENVIRONMENT: "기관 사이트에서 계정 상태를 확인한 뒤 새로 수집해 주세요.",
  INVALID_INPUT: "조회 조건을 고쳐 새로 수집해 주세요.",
  TRANSIENT: "일시적인 문제입니다. 잠시 후 같은 조건으로 다시 수집해 주세요.",
  OTHER: "문제가 계속되면 작업 ID와 함께 문의해 주세요.",
};

/** Codes whose fix is not their category's: a locked account is unlocked at the institution before anything else. */
const CODE_ACTION: Partial<Record<JobErrorCode, string>> = {
  LOGIN_LOCKED: "기관 사이트나 영업점에서 계정 잠금을 먼저 해제한 뒤, 자격 증명을 다시 등록하고 새로 수집해 주세요.",
  CERT_INVALID: "기관에서 쓸 수 있는 유효한 인증서로 자격 증명을 다시 등록한 뒤 새로 수집해 주세요.",
  LOGIN_CREDENTIALS_MISMATCH: "아이디, 비밀번호, 주민등록번호를 확인해 자격 증명을 다시 등록한 뒤 새로 수집해 주세요.",
  LOGIN_SECOND_FACTOR_REQUIRED: "주민등록번호 앞 7자리를 넣어 자격 증명을 다시 등록한 뒤 새로 수집해 주세요.",
  WORKSPACE_QUOTA_EXCEEDED: "플랜을 변경하거나 다음 달에 새로 수집해 주세요.",
};

/** What a person does next about a job's failure: its code's own step where the category's would mislead. */
export const nextActionOf = (error: Pick<JobError, "code" | "category">): string => CODE_ACTION[error.code] ?? NEXT_ACTION[error.category];
