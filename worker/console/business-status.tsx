import { shownBusinessNumber } from "../../contracts/business-number";
import { businessStatusNotice } from "../domain/business-status/notice";
import type { BusinessStatus } from "../domain/business-status/store";


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
