import type { BusinessStatus } from "./store";

/** What a page says of a business NTS does not show as active, in Korean; null for an active one. */
export function businessStatusNotice(status: BusinessStatus): string | null {
  if (!status.registered) return "국세청에 등록되지 않은 사업자등록번호입니다.";
  if (status.statusCode === "02") return "국세청에 휴업 중인 사업자로 나옵니다.";
  if (status.statusCode === "03") return `국세청에 폐업한 사업자로 나옵니다${status.closureDate ? ` (폐업일 ${status.closureDate})` : ""}.`;
  return null;
}
