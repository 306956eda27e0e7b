import { fieldInfos } from "../../contracts/records/field-kinds";
import { TAXPORTAL_RECORDS } from "../../contracts/records/taxportal";
import { fromDay, toDay } from "../dates";
import { pick, seededRandom } from "../random";
import { firstLine, INVOICE_SIDES, ITEMS, linesOfSides } from "./invoice-lines";
import { kstDate, kstIso } from "../../contracts/korean-time";

/** The documents the sandbox portal lists, by schema, with their menu titles; each one's record is TAXPORTAL_RECORDS'. */
export const DOCUMENT_TYPES = {
  "taxportal.tax-invoices.sales.v1": "매출 세금계산서",
  "taxportal.tax-invoices.purchase.v1": "매입 세금계산서",
  "taxportal.cash-receipts.sales.v1": "매출 현금영수증",
  "taxportal.cash-receipts.purchase.v1": "매입 현금영수증",
  "taxportal.tax-invoice-lines.v1": "세금계산서 품목",
  "taxportal.business-card-purchases.v1": "사업용 신용카드 매입",
} as const satisfies Record<keyof typeof TAXPORTAL_RECORDS, string>;
export type DocumentType = keyof typeof DOCUMENT_TYPES;

export const DOCUMENTS_ORIGIN = "2024-01-01";

const COMPANIES = ["(주)한빛상사", "가람유통", "(주)누리테크", "다온식품", "(주)세움건설", "미래물산", "(주)바른회계", "소담카페"];
const PEOPLE = ["김민준", "이서연", "박지호", "최유나", "정도윤", "강하은"];
const ADDRESSES = ["서울특별시 강남구 테헤란로 123", "경기도 성남시 분당구 판교역로 45", "부산광역시 해운대구 센텀중앙로 78", "서울특별시 마포구 양화로 12"];
const VOCAB: Record<string, readonly string[]> = {
  invoiceClassification: ["일반", "수정"],
  invoiceKind: ["전자세금계산서", "전자계산서"],
  issueChannel: ["홈택스", "ASP", "전자세금계산서 발행사업자"],
  paymentType: ["영수", "청구"],
  issueMethod: ["카드", "휴대전화", "현금영수증카드"],
  issueType: ["소득공제", "지출증빙"],
  issueTypeName: ["소득공제", "지출증빙"],
  transactionType: ["승인거래", "취소거래"],
  useType: ["소득공제용", "지출증빙용"],
  deductible: ["공제", "불공제"],
  deductionClassificationName: ["일반", "신용카드 등"],
  merchantClassification: ["일반", "간이"],
  businessTypeName: ["소매업", "음식점업", "서비스업"],
  businessItemName: ["문구", "한식", "소프트웨어 개발", "화물운송"],
  cardCompany: ["신한카드", "삼성카드", "KB국민카드", "현대카드"],
};
const CARD_PURCHASES = "taxportal.business-card-purchases.v1";
/** The issuer of each of a business's two cards, by the card's last four digits. */
const CARD_ISSUERS: Record<string, string> = { "1004": "신한카드", "2718": "KB국민카드" };

const businessId = (random: () => number) => String(1_000_000_000 + Math.floor(random() * 8_999_999_999)).slice(0, 10);

/** One document's fields, built field by field from its record definition so every field has a realistic value or null. */
function document(type: DocumentType, owner: string, date: string, seq: number, random: () => number): Record<string, unknown> {
  const supply = Math.round((10_000 + random() * 4_990_000) / 10) * 10;
  const tax = Math.round(supply / 10);
  const time = [Math.floor(random() * 24), Math.floor(random() * 60), Math.floor(random() * 60)].map((n) => String(n).padStart(2, "0")).join(":");
  const counterparty = businessId(random);
  const sales = type.includes(".sales.");
  const known: Record<string, unknown> = {
    schema: type,
    supplyAmount: supply,
    taxAmount: tax,
    totalAmount: supply + tax,
    tip: type.includes("cash-receipts") || type === CARD_PURCHASES ? (random() < 0.2 ? Math.round(supply * 0.05) : null) : undefined,
    issueDate: date,
    writeDate: date,
    transactionAt: kstIso(`${date}T${time}`),
    approvalNumber: `${date.replace(/-/g, "")}${String(seq).padStart(2, "0")}${String(Math.floor(random() * 1e6)).padStart(6, "0")}`,
    ntsTransactionId: `${date.replace(/-/g, "")}41${String(Math.floor(random() * 1e12)).padStart(12, "0")}`,
    supplierBusinessIdentifier: sales ? owner : counterparty,
    buyerBusinessIdentifier: sales ? counterparty : owner,
    merchantBusinessIdentifier: counterparty,
    itemQuantity: 1 + Math.floor(random() * 20),
    itemSupplyAmount: supply,
    itemTaxAmount: tax,
    sendDate: date,
    itemSupplyDate: date,
    contactNumber: `02-${String(1000 + Math.floor(random() * 9000))}-${String(1000 + Math.floor(random() * 9000))}`,
    ...(type === CARD_PURCHASES
      ? {
          transactionDate: date,
          transactionIdentifier: `${date.replace(/-/g, "")}${String(seq).padStart(2, "0")}${String(Math.floor(random() * 1e8)).padStart(8, "0")}`,
          // Two cards a business holds, masked as the portal shows them.
          cardNumberMasked: `${owner.slice(0, 4)}-****-****-${random() < 0.5 ? "1004" : "2718"}`,
        }
      : {}),
  };
  if (typeof known.itemQuantity === "number") known.itemUnitPrice = Math.round(supply / (known.itemQuantity as number));
  const out: Record<string, unknown> = {};
  for (const field of fieldInfos(TAXPORTAL_RECORDS[type])) {
    let value = known[field.name];
    if (value === undefined) {
      const name = field.name;
      value = VOCAB[name]
        ? pick(random, VOCAB[name]!)
        : /OrganizationName$|^merchantName$/.test(name)
          ? pick(random, COMPANIES)
          : /RepresentativeName$/.test(name)
            ? pick(random, PEOPLE)
            : /Address$/.test(name)
              ? pick(random, ADDRESSES)
              : /Email/.test(name)
                ? `tax${Math.floor(random() * 900 + 100)}@example.co.kr`
                : name === "itemName"
                  ? pick(random, ITEMS)
                  : /Code$/.test(name)
                    ? String(Math.floor(random() * 90 + 10))
                    : null;
    }
    // Optional fields are blank now and then, as on the real portal.
    if (field.nullable && value !== null && random() < 0.15) value = null;
    out[field.name] = value;
  }
  if (type in INVOICE_SIDES) Object.assign(out, firstLine(out));
  // The portal's total of a card purchase takes in the tip (A4, S3's check).
  if (type === CARD_PURCHASES) out.totalAmount = supply + tax + ((out.tip as number | null) ?? 0);
  // A card is one issuer's, every purchase on it names that issuer (crcmClNm), as the cards list is read from them.
  if (type === CARD_PURCHASES) out.cardCompany = CARD_ISSUERS[String(out.cardNumberMasked).slice(-4)] ?? null;
  return out;
}

/** A business's documents of a type written on one day, deterministic from its business number. */
function documentsOn(businessNumber: string, type: DocumentType, date: string): Record<string, unknown>[] {
  const random = seededRandom(`${businessNumber}:${type}:${date}`);
  const count = Math.floor(random() * 3);
  return Array.from({ length: count }, (_, index) => document(type, businessNumber, date, index + 1, random));
}

const AMOUNT_FIELDS = ["supplyAmount", "taxAmount", "totalAmount", "tip", "itemSupplyAmount", "itemTaxAmount", "itemUnitPrice"];
const DATE_FIELDS = ["issueDate", "writeDate", "sendDate", "itemSupplyDate", "transactionDate"];

/**
 * The document that takes an earlier one back on `date`: a corrected tax invoice (수정세금계산서) or a cancelled cash
 * receipt (취소거래), with the original's amounts negated and numbers of its own, as the portal lists them.
 */
function correction(original: Record<string, unknown>, date: string, revision: number): Record<string, unknown> {
  const out: Record<string, unknown> = { ...original };
  for (const field of AMOUNT_FIELDS) if (typeof out[field] === "number") out[field] = -(out[field] as number);
  for (const field of DATE_FIELDS) if (field in out) out[field] = date;
  if (typeof out.transactionAt === "string") out.transactionAt = `${date}${(out.transactionAt as string).slice(10)}`;
  const compact = date.replace(/-/g, "");
  if ("approvalNumber" in out) out.approvalNumber = `${compact}9${revision}${String(original.approvalNumber ?? "").slice(-6).padStart(6, "0")}`;
  if ("transactionIdentifier" in out) out.transactionIdentifier = `${compact}9${revision}${String(original.transactionIdentifier).slice(-8)}`;
  if ("ntsTransactionId" in out) out.ntsTransactionId = `${compact}42${String(revision).padStart(2, "0")}${String(original.ntsTransactionId ?? "").slice(-10).padStart(10, "0")}`;
  if ("invoiceClassification" in out) out.invoiceClassification = "수정";
  if ("transactionType" in out) out.transactionType = "취소거래";
  return out;
}

/**
 * What revision r of a business's history adds (POST /taxportal/sandbox/history?loginId=<business number>): on the
 * day r days before today, the correction of its first document written on or after 3r + 3 days before today.
 */
function correctionsOn(businessNumber: string, type: DocumentType, date: string, revision: number, today: string): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  for (let r = 1; r <= revision; r++) {
    if (fromDay(toDay(today) - r) !== date) continue;
    for (let day = toDay(today) - 3 * r - 3; day < toDay(date); day++) {
      const [original] = documentsOn(businessNumber, type, fromDay(day));
      if (!original) continue;
      out.push(correction(original, date, r));
      break;
    }
  }
  return out;
}

/**
 * Every document of a type for a business, deterministic from its business number, from the origin up to today, as
 * its history stands at `revision` (0: as first shown).
 */
export function documentsOf(businessNumber: string, type: DocumentType, range?: { start: string; end: string }, revision = 0, today = kstDate()): Record<string, unknown>[] {
  // An invoice's lines are listed by the day the invoice was written.
  if (type === "taxportal.tax-invoice-lines.v1") return linesOfSides((side) => documentsOf(businessNumber, side, range, revision, today));
  const first = Math.max(toDay(DOCUMENTS_ORIGIN), range ? toDay(range.start) : 0);
  const last = Math.min(toDay(today), range ? toDay(range.end) : Number.MAX_SAFE_INTEGER);
  const documents: Record<string, unknown>[] = [];
  for (let day = first; day <= last; day++) {
    const date = fromDay(day);
    documents.push(...documentsOn(businessNumber, type, date), ...correctionsOn(businessNumber, type, date, revision, today));
  }
  return documents;
}
