import { ApiError, fieldError } from "../platform/errors/api-error";

/**
 * The longest value each console form field takes: an e-mail address as RFC 5321 allows it, a password far longer
 * than any person types (the hash's cost stays bounded), a name as the sign-up form shows it.
 */
export const FORM_FIELD_BOUNDS = {
  email: { max: 254, label: "이메일" },
  password: { max: 1024, label: "비밀번호" },
  workspaceName: { max: 100, label: "워크스페이스 이름" },
  businessNumber: { max: 12, label: "사업자등록번호" },
  next: { max: 2048, label: "이동할 주소" },
} as const;

export type BoundedField = keyof typeof FORM_FIELD_BOUNDS;

/**
 * Refuses a posted form with a field longer than its bound, before any of its values reaches storage, a rate-limit
 * counter or a password hash: 400 INVALID_PARAM_FORMAT naming every such field.
 */
export function assertBounded(fields: Record<string, string>, names: readonly BoundedField[]): void {
  const over = names.filter((name) => (fields[name]?.length ?? 0) > FORM_FIELD_BOUNDS[name].max);
  if (over.length === 0) return;
  const errors = over.map((name) => fieldError(`body.${name}`, "INVALID_PARAM_FORMAT", `${FORM_FIELD_BOUNDS[name].label}은(는) ${FORM_FIELD_BOUNDS[name].max}자 이하로 입력해 주세요.`));
  throw new ApiError("INVALID_PARAM_FORMAT", { message: errors.map((e) => e.message).join(" "), fieldErrors: errors });
}
