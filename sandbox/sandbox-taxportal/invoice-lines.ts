import { pick, seededRandom } from "../random";

type Doc = Record<string, unknown>;

export const ITEMS = ["사무용품", "소프트웨어 라이선스", "컨설팅 용역", "식자재", "물류 서비스", "광고비", "장비 임대"];
const SPECIFICATIONS = ["EA", "1식", "BOX", "월"];

/** The invoice schemas, in the order the lines of a period are listed: sales first. */
export const INVOICE_SIDES = { "taxportal.tax-invoices.sales.v1": "SALES", "taxportal.tax-invoices.purchase.v1": "PURCHASE" } as const;

/**
 * What fixes an invoice's further lines: fields the Hometax replica passes on unchanged (it gives invoices approval
 * numbers of its own, and a 계산서 no tax), so the sandbox portal and the replica split an invoice alike.
 */
const seedOf = (invoice: Doc) => `lines:${String(invoice.writeDate)}:${String(invoice.supplierBusinessIdentifier)}:${String(invoice.buyerBusinessIdentifier)}:${String(invoice.supplyAmount)}`;

/** A tenth, in whole won, as VAT is. */
const vatOf = (supply: number) => Math.round(supply / 10);
const unitPriceOf = (supply: number, quantity: number | null) => (quantity === null || quantity === 0 ? null : Math.round((supply / quantity) * 100) / 100);

/**
 * The first line of a newly written invoice: the whole invoice half the time, otherwise part of it, the rest in further
 * lines (invoiceLines). Quantities are sometimes fractional and unit prices have up to 2 decimals, as KEC allows (A5).
 */
export function firstLine(invoice: Doc): Doc {
  const random = seededRandom(`${seedOf(invoice)}:first`);
  const total = invoice.supplyAmount as number;
  const supply = random() < 0.5 ? total : Math.round((total * (0.3 + random() * 0.4)) / 10) * 10;
  const quantity = typeof invoice.itemQuantity === "number" ? invoice.itemQuantity + (random() < 0.2 ? 0.5 : 0) : null;
  return { itemSupplyAmount: supply, itemTaxAmount: supply === total ? (invoice.taxAmount as number) : vatOf(supply), itemQuantity: quantity, itemUnitPrice: unitPriceOf(supply, quantity) };
}

/** What is left after the first line, in one or two lines whose amounts add up to it; `tax` null: lines without tax. */
function furtherLines(invoice: Doc, supply: number, tax: number | null): Doc[] {
  if (supply === 0 && !tax) return [];
  const random = seededRandom(`${seedOf(invoice)}:rest`);
  const parts = random() < 0.5 ? [supply] : [Math.round((supply * (0.3 + random() * 0.4)) / 10) * 10];
  if (parts[0] !== supply) parts.push(supply - parts[0]!);
  return parts.map((part, index) => {
    const quantity = 1 + Math.floor(random() * 10);
    const last = index === parts.length - 1;
    return {
      itemName: pick(random, ITEMS),
      itemSpecification: random() < 0.2 ? null : pick(random, SPECIFICATIONS),
      quantity,
      unitPrice: unitPriceOf(part, quantity),
      supplyAmount: part,
      // The last line takes what rounding left over, so the lines add up to the invoice's tax.
      taxAmount: tax === null ? null : last ? tax - parts.slice(0, -1).reduce((sum, p) => sum + vatOf(p), 0) : vatOf(part),
      supplyDate: invoice.writeDate,
      remark: null,
    };
  });
}

/**
 * An invoice's lines (taxportal.tax-invoice-lines.v1): its first line from its item fields, then what is left of its
 * totals. An invoice whose first line has no tax (the replica's 계산서, tax-exempt) has none on any line.
 */
export function invoiceLines(invoice: Doc): Doc[] {
  const first = {
    itemName: invoice.itemName,
    itemSpecification: invoice.itemSpecification,
    quantity: invoice.itemQuantity,
    unitPrice: invoice.itemUnitPrice,
    supplyAmount: invoice.itemSupplyAmount,
    taxAmount: invoice.itemTaxAmount,
    supplyDate: invoice.itemSupplyDate,
    remark: invoice.itemRemark,
  };
  const taxed = first.taxAmount !== null;
  const rest = furtherLines(invoice, (invoice.supplyAmount as number) - (first.supplyAmount as number), taxed ? (invoice.taxAmount as number) - (first.taxAmount as number) : null);
  return [first, ...rest].map((line, index) => ({
    schema: "taxportal.tax-invoice-lines.v1",
    approvalNumber: invoice.ntsTransactionId,
    side: INVOICE_SIDES[invoice.schema as keyof typeof INVOICE_SIDES],
    writeDate: invoice.writeDate,
    lineNumber: index + 1,
    ...line,
  }));
}

/**
 * The lines of a period's invoices, sales first, of those that have an approval number: the sandbox portal leaves some
 * blank to exercise the invoice record's nullable field, and a line without one names no invoice.
 */
export const linesOfSides = (invoicesOf: (side: keyof typeof INVOICE_SIDES) => Doc[]): Doc[] =>
  (Object.keys(INVOICE_SIDES) as (keyof typeof INVOICE_SIDES)[])
    .flatMap(invoicesOf)
    .filter((invoice) => invoice.ntsTransactionId != null)
    .flatMap(invoiceLines);
