import { withCheckDigit } from "../../contracts/business-number";
import { SANDBOX_BUSINESS_NUMBER } from "../certificates/issue";
import type { StatusItem } from "../../collectors/nts-business-status/wire";

/** One number as the replica knows it, in the answer's own fields, each present (docs/institutions/nts-business-status.md §3). */
export type ReplicaBusiness = Required<StatusItem>;

/** The replica's service keys: the one that works, and one not approved for this service (gateway -3). */
export const REPLICA_SERVICE_KEY = "sandbox-nts-service-key/0123456789+abcdef==";
export const UNAPPROVED_SERVICE_KEY = "sandbox-nts-unapproved-key";

const none = { rbf_tax_type: "해당없음", rbf_tax_type_cd: "99" };

/**
 * The businesses NTS knows here: active (a general and a simplified taxpayer), suspended, closed, one closed on
 * converting to unit taxation, and the sandbox's own business. Any other valid number is unregistered. Numbers are made with the check-digit rule.
 */
export const REPLICA_BUSINESSES: readonly ReplicaBusiness[] = [
  { b_no: withCheckDigit("110811001"), b_stt: "계속사업자", b_stt_cd: "01", tax_type: "부가가치세 일반과세자", tax_type_cd: "01", end_dt: "", utcc_yn: "N", tax_type_change_dt: "", invoice_apply_dt: "", ...none },
  {
    b_no: withCheckDigit("214861234"),
    b_stt: "계속사업자",
    b_stt_cd: "01",
    tax_type: "부가가치세 간이과세자",
    tax_type_cd: "02",
    end_dt: "",
    utcc_yn: "N",
    tax_type_change_dt: "20240701",
    invoice_apply_dt: "20240701",
    rbf_tax_type: "부가가치세 일반과세자",
    rbf_tax_type_cd: "01",
  },
  { b_no: withCheckDigit("305812345"), b_stt: "휴업자", b_stt_cd: "02", tax_type: "부가가치세 일반과세자", tax_type_cd: "01", end_dt: "", utcc_yn: "N", tax_type_change_dt: "", invoice_apply_dt: "", ...none },
  { b_no: withCheckDigit("409863456"), b_stt: "폐업자", b_stt_cd: "03", tax_type: "부가가치세 면세사업자", tax_type_cd: "04", end_dt: "20250331", utcc_yn: "N", tax_type_change_dt: "", invoice_apply_dt: "", ...none },
  { b_no: withCheckDigit("511817890"), b_stt: "폐업자", b_stt_cd: "03", tax_type: "부가가치세 일반과세자", tax_type_cd: "01", end_dt: "20251231", utcc_yn: "Y", tax_type_change_dt: "", invoice_apply_dt: "", ...none },
  // The sandbox's own business (its certificates, the demo workspace): active, so the console says nothing of it.
  { b_no: SANDBOX_BUSINESS_NUMBER, b_stt: "계속사업자", b_stt_cd: "01", tax_type: "부가가치세 일반과세자", tax_type_cd: "01", end_dt: "", utcc_yn: "N", tax_type_change_dt: "", invoice_apply_dt: "", ...none },
];

/** A valid number no business holds here: answered as unregistered. */
export const UNREGISTERED_NUMBER = withCheckDigit("999990001");

const BY_NUMBER = new Map(REPLICA_BUSINESSES.map((b) => [b.b_no, b]));

export const UNREGISTERED_TEXT = "국세청에 등록되지 않은 사업자등록번호입니다.";

/** The item the API answers for a number: the business, or the unregistered item (N2, N5, N7). */
export function statusItemOf(number: string): ReplicaBusiness {
  return (
    BY_NUMBER.get(number) ?? {
      b_no: number,
      b_stt: "",
      b_stt_cd: "",
      tax_type: UNREGISTERED_TEXT,
      tax_type_cd: "",
      end_dt: "",
      utcc_yn: "",
      tax_type_change_dt: "",
      invoice_apply_dt: "",
      rbf_tax_type: "",
      rbf_tax_type_cd: "",
    }
  );
}
