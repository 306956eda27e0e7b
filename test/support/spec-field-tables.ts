/**
 * The spec's record field tables (service-spec.md, "Record schemas"), transcribed
 * by hand rather than read from the zod record types, so records are checked
 * against the contract itself.
 */
type FieldType = "string" | "number" | "int32" | "int64" | "boolean" | "date" | "date-time";

interface FieldRule {
  type: FieldType;
  /** R in the spec; N fields may be null. */
  required: boolean;
  values?: readonly string[];
}

const R = (type: FieldType, values?: readonly string[]): FieldRule => ({ type, required: true, values });
const N = (type: FieldType): FieldRule => ({ type, required: false });
const nullable = (type: FieldType, names: string): Record<string, FieldRule> => Object.fromEntries(names.split(/,\s*/).map((name) => [name, N(type)]));

const ACCOUNT_TYPES = ["CHECKING", "INSTALLMENT_SAVINGS", "TRUST", "FUND", "FOREIGN", "LOAN", "INSURANCE", "PENSION"] as const;

const TAX_INVOICE = {
  issueDate: R("date"),
  writeDate: R("date"),
  supplyAmount: R("number"),
  taxAmount: R("number"),
  totalAmount: R("number"),
  ...nullable(
    "string",
    "buyerAddress, buyerEmail, buyerEmailSecondary, buyerOrganizationName, buyerRepresentativeName, buyerSubBusinessNumber, invoiceClassification, invoiceKind, issueChannel, itemName, itemRemark, itemSpecification, ntsTransactionId, paymentType, remark, supplierAddress, supplierEmail, supplierOrganizationName, supplierRepresentativeName, supplierSubBusinessNumber, trusteeBusinessIdentifier, trusteeOrganizationName",
  ),
  ...nullable("number", "itemQuantity, itemSupplyAmount, itemTaxAmount, itemUnitPrice"),
  ...nullable("date", "itemSupplyDate, sendDate"),
};

const CASH_RECEIPT = { approvalNumber: R("string"), supplyAmount: R("number"), taxAmount: R("number"), totalAmount: R("number"), transactionAt: R("date-time"), tip: N("number") };

export const SPEC_FIELD_TABLES: Record<string, Record<string, FieldRule>> = {
  "bank.accounts.cb.v1": {
    accountNumber: R("string"),
    accountNumberFormatted: N("string"),
    accountType: R("string", ACCOUNT_TYPES),
    availableBalance: N("number"),
    balance: N("number"),
    currencyCode: R("string"),
    displayName: N("string"),
    productName: N("string"),
  },
  "bank.transactions.cb.v1": {
    accountNumber: R("string"),
    accountNumberFormatted: N("string"),
    accountType: R("string", ACCOUNT_TYPES),
    amount: R("number"),
    balance: N("number"),
    currencyCode: R("string"),
    description: N("string"),
    identifier: R("string"),
    transactionAt: R("date-time"),
  },
  "taxportal.tax-invoices.sales.v1": { ...TAX_INVOICE, supplierBusinessIdentifier: R("string"), buyerBusinessIdentifier: N("string") },
  "taxportal.tax-invoices.purchase.v1": { ...TAX_INVOICE, buyerBusinessIdentifier: R("string"), supplierBusinessIdentifier: N("string") },
  "taxportal.cash-receipts.sales.v1": { ...CASH_RECEIPT, ...nullable("string", "issueMethod, issueType, remark, transactionType, useType") },
  "taxportal.cash-receipts.purchase.v1": {
    ...CASH_RECEIPT,
    ...nullable(
      "string",
      "businessTypeCode, businessTypeName, contactNumber, deductible, deductionClassificationCode, deductionClassificationName, issueMethod, issueTypeCode, issueTypeName, lotAddress, merchantBusinessIdentifier, merchantClassification, organizationName, roadAddress, transactionType",
    ),
  },
  "card.cards.corp.v1": { cardName: R("string"), cardNumberMasked: R("string") },
  "card.approvals.corp.v1": {
    approvalNumber: R("string"),
    approvedAt: R("date-time"),
    cardNumberMasked: R("string"),
    installmentMonths: N("int32"),
    lifecycleStage: R("string", ["AUTHORIZED", "CAPTURED", "UNKNOWN"]),
    merchantAddress: N("string"),
    merchantBusinessIdentifier: N("string"),
    merchantBusinessType: N("string"),
    merchantContactNumber: N("string"),
    merchantName: R("string"),
    merchantRepresentativeName: N("string"),
    originalAmount: N("number"),
    originalCurrencyCode: N("string"),
    overseas: R("boolean"),
    paymentMethod: R("string", ["SINGLE_PAYMENT", "INSTALLMENT", "CHECK", "OTHER"]),
    settledAmount: R("number"),
    settledCurrencyCode: R("string"),
    status: R("string", ["APPROVED", "CANCELLED", "PARTIALLY_CANCELLED", "DECLINED", "UNKNOWN"]),
    taxAmount: N("number"),
    transactionIdentifier: R("string"),
  },
  // Extension schemas, which the spec does not define: transcribed from their tables in docs/institutions/hometax.md
  // ("Extension schemas"), the contract they are published under.
  "taxportal.tax-invoice-lines.v1": {
    approvalNumber: R("string"),
    side: R("string", ["SALES", "PURCHASE"]),
    writeDate: R("date"),
    lineNumber: R("int32"),
    ...nullable("string", "itemName, itemSpecification, remark"),
    ...nullable("number", "quantity, unitPrice"),
    supplyAmount: R("int64"),
    taxAmount: N("int64"),
    supplyDate: N("date"),
  },
  "taxportal.business-card-purchases.v1": {
    transactionIdentifier: R("string"),
    transactionDate: R("date"),
    cardNumberMasked: R("string"),
    ...nullable(
      "string",
      "cardCompany, merchantName, merchantBusinessIdentifier, merchantClassification, businessTypeCode, businessTypeName, businessItemName, deductible, deductionClassificationCode, deductionClassificationName",
    ),
    supplyAmount: R("int64"),
    taxAmount: R("int64"),
    tip: N("int64"),
    totalAmount: R("int64"),
  },
};

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

function fits(value: unknown, type: FieldType): boolean {
  switch (type) {
    case "string":
      return typeof value === "string";
    case "number":
      return typeof value === "number" && Number.isFinite(value);
    case "int32":
      return Number.isInteger(value) && Math.abs(value as number) < 2 ** 31;
    case "int64":
      return Number.isSafeInteger(value);
    case "boolean":
      return typeof value === "boolean";
    case "date":
      return typeof value === "string" && ISO_DATE.test(value) && !Number.isNaN(Date.parse(value));
    case "date-time":
      return typeof value === "string" && ISO_DATE_TIME.test(value) && !Number.isNaN(Date.parse(value));
  }
}

/** What in a record breaks its schema's field table: every field present, nothing else, nulls only where allowed, types and enums as listed. */
export function specViolations(record: Record<string, unknown>): string[] {
  const table = SPEC_FIELD_TABLES[String(record.schema)];
  if (!table) return [`no field table for schema ${String(record.schema)}`];
  const problems: string[] = [];
  for (const name of Object.keys(record)) if (name !== "schema" && !table[name]) problems.push(`${name}: not in the spec`);
  for (const [name, rule] of Object.entries(table)) {
    if (!(name in record)) problems.push(`${name}: missing`);
    else if (record[name] === null) {
      if (rule.required) problems.push(`${name}: null but required`);
    } else if (!fits(record[name], rule.type)) problems.push(`${name}: ${JSON.stringify(record[name])} is not ${rule.type}`);
    else if (rule.values && !rule.values.includes(record[name] as string)) problems.push(`${name}: ${JSON.stringify(record[name])} is not one of ${rule.values.join(", ")}`);
  }
  return problems;
}
