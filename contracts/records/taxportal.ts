import { z } from "@hono/zod-openapi";
import { date, dateTime, discriminator, ndate, nnum, nstr, num, nwon, oneOf, ordinal, str, won } from "./fields";

const cashReceiptCommon = {
  approvalNumber: str("승인번호"),
  supplyAmount: num("공급가액"),
  taxAmount: num("부가세"),
  totalAmount: num("합계금액"),
  transactionAt: dateTime("거래일시"),
  tip: nnum("봉사료"),
};

export const CashReceiptSalesRecord = z
  .object({
    schema: discriminator("taxportal.cash-receipts.sales.v1"),
    ...cashReceiptCommon,
    issueMethod: nstr("발행방식"),
    issueType: nstr("발행구분"),
    remark: nstr("비고"),
    transactionType: nstr("거래구분"),
    useType: nstr("용도구분"),
  })
  .openapi("CashReceiptSalesRecord");

export const CashReceiptPurchaseRecord = z
  .object({
    schema: discriminator("taxportal.cash-receipts.purchase.v1"),
    ...cashReceiptCommon,
    businessTypeCode: nstr("업종코드"),
    businessTypeName: nstr("업종명"),
    contactNumber: nstr("가맹점전화번호"),
    deductible: nstr("공제여부"),
    deductionClassificationCode: nstr("공제구분코드"),
    deductionClassificationName: nstr("공제구분명"),
    issueMethod: nstr("발행방식"),
    issueTypeCode: nstr("발행구분코드"),
    issueTypeName: nstr("발행구분명"),
    lotAddress: nstr("지번주소"),
    merchantBusinessIdentifier: nstr("가맹점사업자번호"),
    merchantClassification: nstr("가맹점구분"),
    organizationName: nstr("가맹점명"),
    roadAddress: nstr("도로명주소"),
    transactionType: nstr("거래구분"),
  })
  .openapi("CashReceiptPurchaseRecord");

const taxInvoiceCommon = {
  issueDate: date("발급일자"),
  writeDate: date("작성일자"),
  supplyAmount: num("공급가액"),
  taxAmount: num("세액"),
  totalAmount: num("합계금액"),
  buyerAddress: nstr("공급받는자주소"),
  buyerEmail: nstr("공급받는자이메일"),
  buyerEmailSecondary: nstr("공급받는자이메일2"),
  buyerOrganizationName: nstr("공급받는자상호"),
  buyerRepresentativeName: nstr("공급받는자대표자명"),
  buyerSubBusinessNumber: nstr("공급받는자종사업장번호"),
  invoiceClassification: nstr("세금계산서분류"),
  invoiceKind: nstr("세금계산서종류"),
  issueChannel: nstr("발급유형"),
  itemName: nstr("품목명"),
  itemRemark: nstr("품목비고"),
  itemSpecification: nstr("품목규격"),
  ntsTransactionId: nstr("승인번호"),
  paymentType: nstr("영수청구구분"),
  remark: nstr("비고"),
  supplierAddress: nstr("공급자주소"),
  supplierEmail: nstr("공급자이메일"),
  supplierOrganizationName: nstr("공급자상호"),
  supplierRepresentativeName: nstr("공급자대표자명"),
  supplierSubBusinessNumber: nstr("공급자종사업장번호"),
  trusteeBusinessIdentifier: nstr("수탁사업자번호"),
  trusteeOrganizationName: nstr("수탁사업자상호"),
  itemQuantity: nnum("품목수량"),
  itemSupplyAmount: nnum("품목공급가액"),
  itemTaxAmount: nnum("품목세액"),
  itemUnitPrice: nnum("품목단가"),
  itemSupplyDate: ndate("품목공급일자"),
  sendDate: ndate("전송일자"),
};

export const TaxInvoiceSalesRecord = z
  .object({
    schema: discriminator("taxportal.tax-invoices.sales.v1"),
    ...taxInvoiceCommon,
    supplierBusinessIdentifier: str("공급자사업자번호"),
    buyerBusinessIdentifier: nstr("공급받는자사업자번호"),
  })
  .openapi("TaxInvoiceSalesRecord");

export const TaxInvoicePurchaseRecord = z
  .object({
    schema: discriminator("taxportal.tax-invoices.purchase.v1"),
    ...taxInvoiceCommon,
    supplierBusinessIdentifier: nstr("공급자사업자번호"),
    buyerBusinessIdentifier: str("공급받는자사업자번호"),
  })
  .openapi("TaxInvoicePurchaseRecord");

/**
 * One line item (품목) of a tax invoice, sales or purchase (an extension schema: docs/institutions/hometax.md,
 * "Extension schemas"). An invoice's lines add up to its supply and tax totals; the invoice records keep the first
 * line's fields as the spec defines them. Quantity and unit price may have a fraction and be negative (A5), as numbers,
 * as the invoice record's `itemQuantity` and `itemUnitPrice` are; a 계산서's lines have no tax (null), as its `itemTaxAmount`.
 */
export const TaxInvoiceLineRecord = z
  .object({
    schema: discriminator("taxportal.tax-invoice-lines.v1"),
    approvalNumber: str("승인번호"),
    side: oneOf(["SALES", "PURCHASE"], "매출매입구분"),
    writeDate: date("작성일자"),
    lineNumber: ordinal("품목순번"),
    itemName: nstr("품목명"),
    itemSpecification: nstr("규격"),
    quantity: nnum("수량"),
    unitPrice: nnum("단가"),
    supplyAmount: won("공급가액"),
    taxAmount: nwon("세액"),
    supplyDate: ndate("공급일자"),
    remark: nstr("비고"),
  })
  .openapi("TaxInvoiceLineRecord");

/** One purchase on a business credit card registered at the tax portal (사업용 신용카드 매입; an extension schema). */
export const BusinessCardPurchaseRecord = z
  .object({
    schema: discriminator("taxportal.business-card-purchases.v1"),
    transactionIdentifier: str("거래일련번호"),
    transactionDate: date("거래일자"),
    cardNumberMasked: str("카드번호"),
    cardCompany: nstr("카드사"),
    merchantName: nstr("가맹점명"),
    merchantBusinessIdentifier: nstr("가맹점사업자번호"),
    merchantClassification: nstr("가맹점유형"),
    businessTypeCode: nstr("업종코드"),
    businessTypeName: nstr("업태"),
    businessItemName: nstr("종목"),
    supplyAmount: won("공급가액"),
    taxAmount: won("부가세"),
    tip: nwon("봉사료"),
    totalAmount: won("합계금액"),
    deductible: nstr("공제여부"),
    deductionClassificationCode: nstr("공제구분코드"),
    deductionClassificationName: nstr("공제구분명"),
  })
  .openapi("BusinessCardPurchaseRecord");

/** Each tax-portal document schema's record, by schema id: what the sandbox portal shows and its adapter reads back. */
export const TAXPORTAL_RECORDS = {
  "taxportal.tax-invoices.sales.v1": TaxInvoiceSalesRecord,
  "taxportal.tax-invoices.purchase.v1": TaxInvoicePurchaseRecord,
  "taxportal.cash-receipts.sales.v1": CashReceiptSalesRecord,
  "taxportal.cash-receipts.purchase.v1": CashReceiptPurchaseRecord,
  "taxportal.tax-invoice-lines.v1": TaxInvoiceLineRecord,
  "taxportal.business-card-purchases.v1": BusinessCardPurchaseRecord,
} as const;
