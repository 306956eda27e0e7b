import type { z } from "zod";
import { type FieldKind, fieldInfos } from "../../../contracts/records/field-kinds";
import { DAY_MS, KST_OFFSET_MS } from "../../../contracts/korean-time";

/**
 * The SpreadsheetML parts of the Excel download (ECMA-376), written by us: the ZIP container is fflate's
 * (xlsx-export.ts). Only what a plain sheet needs: content types, relationships, a workbook naming its sheets, styles
 * (date formats, a bold header, text for identifiers) and the sheets, whose rows are inline strings and numbers, so
 * no shared-strings table has to be held while the rows stream.
 */

/** Data rows a sheet holds: Excel opens at most 1,048,576 rows, one of them the header. */
export const SHEET_ROWS = 1_048_575;

const MAIN_NS = "http://schemas.openxmlformats.org/spreadsheetml/2006/main";
const REL_NS = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";
const PKG_REL_NS = "http://schemas.openxmlformats.org/package/2006/relationships";
const XML_HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';

/** Indexes into styles.xml's cellXfs. */
const STYLE = { date: 1, datetime: 2, text: 3, header: 4 } as const;

/** Excel's day 0 is 1899-12-30 (its 1900 leap-year bug included), 25,569 days before the Unix epoch. */
const EPOCH_SERIAL = 25_569;

// Characters XML 1.0 cannot carry, written the way OOXML escapes them (ST_Xstring `_xHHHH_`); a literal `_xHHHH_`
// in the data has its underscore escaped so Excel does not decode it. A lone surrogate is not a character either.
const UNWRITABLE = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
const ESCAPE_LIKE = /_(x[0-9A-Fa-f]{4}_)/g;
const XML_SPECIAL = /[&<>\r]/g;
const XML_ENTITY: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", "\r": "&#13;" };

const hex4 = (char: string) => `_x${char.charCodeAt(0).toString(16).toUpperCase().padStart(4, "0")}_`;
export const xmlText = (value: string) => value.replace(ESCAPE_LIKE, "_x005F_$1").replace(UNWRITABLE, hex4).replace(XML_SPECIAL, (c) => XML_ENTITY[c]!);

/** A text cell: an inline string is never a formula, so nothing has to be neutralised as the CSV does. */
const textCell = (ref: string, value: string, style: number = STYLE.text) => `<c r="${ref}" s="${style}" t="inlineStr"><is><t xml:space="preserve">${xmlText(value)}</t></is></c>`;

/** Column letters: A … Z, AA …. */
function columnName(index: number): string {
  let name = "";
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) name = String.fromCharCode(65 + ((n - 1) % 26)) + name;
  return name;
}

/** A date (YYYY-MM-DD) or a time with offset as the serial Excel counts days in; a time as Korean wall-clock time. */
function serial(value: string, kind: "date" | "datetime"): number | null {
  const at = Date.parse(kind === "date" ? `${value}T00:00:00Z` : value);
  if (Number.isNaN(at)) return null;
  return (at + (kind === "datetime" ? KST_OFFSET_MS : 0)) / DAY_MS + EPOCH_SERIAL;
}

function cell(ref: string, kind: FieldKind, value: unknown): string {
  if (value === null || value === undefined) return "";
  if (kind === "number" && typeof value === "number") return `<c r="${ref}"><v>${value}</v></c>`;
  if (kind === "boolean" && typeof value === "boolean") return `<c r="${ref}" t="b"><v>${value ? 1 : 0}</v></c>`;
  if ((kind === "date" || kind === "datetime") && typeof value === "string") {
    const days = serial(value, kind);
    if (days !== null) return `<c r="${ref}" s="${STYLE[kind]}"><v>${days}</v></c>`;
  }
  return textCell(ref, String(value));
}

/** How a record's fields become a sheet's columns: headed by the same Korean labels as the CSV, in the same order. */
export interface SheetLayout {
  header: string;
  row: (record: Record<string, unknown>, rowNumber: number) => string;
  /** Opens a sheet: column widths, the header frozen above the rows. */
  head: string;
  tail: string;
}

export function sheetLayout(record: z.ZodObject): SheetLayout {
  const fields = fieldInfos(record).map((field, i) => ({ ...field, letter: columnName(i) }));
  const width = (field: (typeof fields)[number]) => (field.kind === "datetime" ? 20 : Math.min(40, Math.max(12, field.title.length * 2 + 4)));
  const cols = fields.map((field, i) => `<col min="${i + 1}" max="${i + 1}" width="${width(field)}" customWidth="1"/>`).join("");
  return {
    header: `<row r="1">${fields.map((f) => textCell(`${f.letter}1`, f.title, STYLE.header)).join("")}</row>`,
    row: (values, n) => `<row r="${n}">${fields.map((f) => cell(`${f.letter}${n}`, f.kind, values[f.name])).join("")}</row>`,
    head:
      `${XML_HEAD}<worksheet xmlns="${MAIN_NS}">` +
      '<sheetViews><sheetView workbookViewId="0"><pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/></sheetView></sheetViews>' +
      `<cols>${cols}</cols><sheetData>`,
    // Identifiers of digits are text on purpose: Excel's green "number stored as text" marks are switched off.
    tail: '</sheetData><ignoredErrors><ignoredError sqref="A1:XFD1048576" numberStoredAsText="1"/></ignoredErrors></worksheet>',
  };
}

export const sheetPath = (index: number) => `xl/worksheets/sheet${index + 1}.xml`;

/** Everything but the sheets, for a workbook of `sheets` sheets named 결과, 결과 2, …. */
export function packageParts(sheets: number): [string, string][] {
  const indexes = Array.from({ length: sheets }, (_, i) => i);
  const sheetType = "application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml";
  return [
    [
      "[Content_Types].xml",
      `${XML_HEAD}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
        '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>' +
        '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>' +
        '<Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/>' +
        indexes.map((i) => `<Override PartName="/${sheetPath(i)}" ContentType="${sheetType}"/>`).join("") +
        "</Types>",
    ],
    ["_rels/.rels", `${XML_HEAD}<Relationships xmlns="${PKG_REL_NS}"><Relationship Id="rId1" Type="${REL_NS}/officeDocument" Target="xl/workbook.xml"/></Relationships>`],
    [
      "xl/workbook.xml",
      `${XML_HEAD}<workbook xmlns="${MAIN_NS}" xmlns:r="${REL_NS}"><sheets>` +
        indexes.map((i) => `<sheet name="${i === 0 ? "결과" : `결과 ${i + 1}`}" sheetId="${i + 1}" r:id="rId${i + 1}"/>`).join("") +
        "</sheets></workbook>",
    ],
    [
      "xl/_rels/workbook.xml.rels",
      `${XML_HEAD}<Relationships xmlns="${PKG_REL_NS}">` +
        indexes.map((i) => `<Relationship Id="rId${i + 1}" Type="${REL_NS}/worksheet" Target="worksheets/sheet${i + 1}.xml"/>`).join("") +
        `<Relationship Id="rId${sheets + 1}" Type="${REL_NS}/styles" Target="styles.xml"/></Relationships>`,
    ],
    [
      "xl/styles.xml",
      `${XML_HEAD}<styleSheet xmlns="${MAIN_NS}">` +
        '<numFmts count="2"><numFmt numFmtId="164" formatCode="yyyy-mm-dd"/><numFmt numFmtId="165" formatCode="yyyy-mm-dd hh:mm:ss"/></numFmts>' +
        '<fonts count="2"><font><sz val="11"/><name val="맑은 고딕"/></font><font><b/><sz val="11"/><name val="맑은 고딕"/></font></fonts>' +
        '<fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills>' +
        '<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>' +
        '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>' +
        '<cellXfs count="5"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>' +
        '<xf numFmtId="164" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>' +
        '<xf numFmtId="165" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>' +
        // 49 is the built-in "@" (text): a cell edited later stays text too.
        '<xf numFmtId="49" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>' +
        '<xf numFmtId="49" fontId="1" fillId="0" borderId="0" xfId="0" applyNumberFormat="1" applyFont="1"/></cellXfs>' +
        '<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles></styleSheet>',
    ],
  ];
}
