import { z } from "@hono/zod-openapi";
import { bool, discriminator, ndate, nstr, str } from "./fields";

const nbool = (title: string) => z.boolean().nullable().meta({ title });

/**
 * One business number's registration status at the National Tax Service (국세청 사업자등록정보 상태조회,
 * docs/institutions/nts-business-status.md §4): one record per number asked, registered or not.
 */
export const BusinessStatusRecord = z
  .object({
    schema: discriminator("business.status.v1"),
    businessNumber: str("사업자등록번호"),
    registered: bool("국세청등록여부"),
    status: nstr("납세자상태"),
    statusCode: nstr("납세자상태코드"),
    taxType: nstr("과세유형"),
    taxTypeCode: nstr("과세유형코드"),
    closureDate: ndate("폐업일자"),
    unitTaxationClosure: nbool("단위과세전환폐업여부"),
    taxTypeChangeDate: ndate("최근과세유형전환일자"),
    invoiceApplyDate: ndate("세금계산서적용일자"),
    previousTaxType: nstr("직전과세유형"),
    previousTaxTypeCode: nstr("직전과세유형코드"),
  })
  .openapi("BusinessStatusRecord");
