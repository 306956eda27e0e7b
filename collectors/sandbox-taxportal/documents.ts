import type { z } from "zod";
import { type FieldInfo, fieldInfos } from "../../contracts/records/field-kinds";
import { TAXPORTAL_RECORDS } from "../../contracts/records/taxportal";
import type { AdapterContext, BrowserPage } from "../adapter";
import type { RawRecord, TaskUnit } from "../../contracts/task-unit";
import { malformed } from "../kit/failure-text";
import { askOnInquiryPage, readEachPage } from "../kit/inquiry-page";
import { open, press, settle } from "../kit/page-state";
import { failureFromText } from "./failures";
import { kstIso } from "../../contracts/korean-time";

const RECORDS: Record<string, z.ZodObject> = TAXPORTAL_RECORDS;

const READ_TABLE = `({
  columns: [...document.querySelectorAll("#docTable thead th")].map((th) => th.dataset.field),
  rows: [...document.querySelectorAll("#docTable tbody tr")].map((tr) => [...tr.children].map((td) => td.textContent)),
})`;

/** The portal's display form back to the record's: "1,234" → 1234, "2026-03-05 14:22:10" → ISO with +09:00, blank → null. */
function value(text: string, field: FieldInfo): unknown {
  if (text === "") {
    if (!field.nullable) throw malformed(`${field.name} is blank`);
    return null;
  }
  if (field.kind === "number") {
    const n = Number(text.replace(/,/g, ""));
    if (!/^-?[\d,]+(\.\d+)?$/.test(text) || Number.isNaN(n)) throw malformed(`unreadable number in ${field.name}`);
    return n;
  }
  if (field.kind === "datetime") {
    if (!/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/.test(text)) throw malformed(`unreadable time in ${field.name}`);
    return kstIso(text.replace(" ", "T"));
  }
  return text;
}

/** One document type over one date window (at most the portal's 31 days), every result page. */
export async function documentRecords(page: BrowserPage, unit: TaskUnit, ctx: AdapterContext): Promise<RawRecord[]> {
  const record = RECORDS[unit.schema];
  const { segment } = unit;
  if (!record || !segment) throw malformed(`no document inquiry for ${unit.schema}`);
  const fields = new Map(fieldInfos(record).map((f) => [f.name, f]));
  const openInquiry = async () => {
    await open(page, new URL("inquiry", ctx.baseUrl).toString(), ctx);
    await settle(page, `!!document.querySelector("#btnInquiry")`, ctx, failureFromText);
  };
  const inquiry = { path: "/inquiry", result: "#result", mark: "page", table: "#docTable", open: openInquiry };
  return askOnInquiryPage(page, inquiry, async () => {
    await page.select("#docType", unit.schema);
    await page.evaluate(`document.getElementById("startDate").value = ${JSON.stringify(segment.start)}; document.getElementById("endDate").value = ${JSON.stringify(segment.end)};`);
    await press(page, "#btnInquiry");
    const records: RawRecord[] = [];
    await readEachPage(page, inquiry, "#btnNext", ctx, failureFromText, async () => {
      const table = (await page.evaluate(READ_TABLE)) as { columns: string[]; rows: string[][] };
      for (const row of table.rows) {
        if (row.length !== table.columns.length) throw malformed("document row does not match the header");
        records.push(Object.fromEntries(table.columns.map((name, i) => {
          const field = fields.get(name);
          if (!field) throw malformed(`unknown column ${name}`);
          return [name, value(row[i]!, field)];
        })));
      }
    });
    const total = Number(await page.evaluate(`document.getElementById("count").textContent`));
    if (total !== records.length) throw malformed(`portal reports ${total} documents, read ${records.length}`);
    return records;
  });
}
