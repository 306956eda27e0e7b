import { z } from "@hono/zod-openapi";
import { bool, dateTime, discriminator, nint, nnum, nstr, num, oneOf, str } from "./fields";

export const CorporateCardRecord = z
  .object({
    schema: discriminator("card.cards.corp.v1"),
    cardName: str("카드명"),
    cardNumberMasked: str("카드번호"),
  })
  .openapi("CorporateCardRecord");

export const CardApprovalRecord = z
  .object({
    schema: discriminator("card.approvals.corp.v1"),
    approvalNumber: str("승인번호"),
    approvedAt: dateTime("승인일시"),
    cardNumberMasked: str("카드번호"),
    installmentMonths: nint("할부개월"),
    lifecycleStage: oneOf(["AUTHORIZED", "CAPTURED", "UNKNOWN"], "처리단계"),
    merchantAddress: nstr("가맹점주소"),
    merchantBusinessIdentifier: nstr("가맹점사업자번호"),
    merchantBusinessType: nstr("가맹점업종"),
    merchantContactNumber: nstr("가맹점전화번호"),
    merchantName: str("가맹점명"),
    merchantRepresentativeName: nstr("가맹점대표자명"),
    originalAmount: nnum("현지거래금액"),
    originalCurrencyCode: nstr("현지통화"),
    overseas: bool("해외여부"),
    paymentMethod: oneOf(["SINGLE_PAYMENT", "INSTALLMENT", "CHECK", "OTHER"], "결제방법"),
    settledAmount: num("승인금액"),
    settledCurrencyCode: str("결제통화"),
    status: oneOf(["APPROVED", "CANCELLED", "PARTIALLY_CANCELLED", "DECLINED", "UNKNOWN"], "승인상태"),
    taxAmount: nnum("부가세"),
    transactionIdentifier: str("거래식별자"),
  })
  .openapi("CardApprovalRecord");
