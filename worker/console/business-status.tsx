import { shownBusinessNumber } from "../../contracts/business-number";
import type { BusinessStatus } from "../domain/business-status/store";

/** What a page says of a business NTS does not show as active, in Korean; null for an active one. */
function businessStatusNotice(status: BusinessStatus): string | null {
  if (!status.registered) return "국세청에 등록되지 않은 사업자등록번호입니다.";
  if (status.statusCode === "02") return "국세청에 휴업 중인 사업자로 나옵니다.";
  if (status.statusCode === "03") return `국세청에 폐업한 사업자로 나옵니다${status.closureDate ? ` (폐업일 ${status.closureDate})` : ""}.`;
  return null;
}

/** The workspace's own business, when NTS does not show it active: said at the top of the overview. */
export function BusinessNotice({ number, status }: { number: string; status: BusinessStatus | undefined }) {
  const notice = status && businessStatusNotice(status);
  if (!notice) return null;
  return (
    <p class="notice warning" role="status" id="business-status" data-status-code={status.statusCode ?? "unregistered"}>
      사업자등록번호 {shownBusinessNumber(number)}: {notice} 이 사업자의 자료는 더 수집되지 않을 수 있습니다.
    </p>
  );
}

/** A certificate's business, when NTS does not show it active: a badge beside its label. */
export function BusinessBadge({ status }: { status: BusinessStatus | undefined }) {
  const notice = status && businessStatusNotice(status);
  if (!notice) return null;
  return (
    <span class="badge warning" data-badge="business-status" title={notice}>
      {" "}
      {!status.registered ? "미등록 사업자" : status.statusCode === "02" ? "휴업" : "폐업"}
    </span>
  );
}
