import { Zip, ZipDeflate } from "fflate";
import type { z } from "zod";
import { recordLineBatches } from "./record-lines";
import type { FinishedUnit, ResultsReader } from "./unit-results";
import { packageParts, SHEET_ROWS, sheetLayout, sheetPath } from "./xlsx-parts";

/** How much sheet XML is gathered before it is deflated and handed on: large enough to keep fflate's calls few. */
const CHUNK_CHARS = 64 * 1024;

/**
 * The Excel download: a workbook whose sheet's columns are the CSV's (same Korean headers, same order), typed as
 * finance staff open them: identifiers text (an approval number keeps its leading 0, an account number is not 1.1E+11),
 * amounts numbers, dates dates. Unlike the CSV, which pipes stored rows untouched, each record's stored JSON line is
 * parsed and written as a row, and the sheet deflated in JavaScript (fflate's streaming ZIP); every write waits for
 * the response's reader, so a run is read from R2 only as fast as the client takes the file and memory stays flat
 * whatever the job's size. Past Excel's rows a sheet, the rows go on in the next sheet.
 */
export function xlsxResults(
  bucket: ResultsReader,
  jobId: string,
  record: z.ZodObject,
  units: FinishedUnit[],
  recordCount: number,
  sheetRows: number = SHEET_ROWS,
): ReadableStream<Uint8Array> {
  const { readable, writable } = new IdentityTransformStream();
  const pump = async () => {
    const writer = writable.getWriter();
    const encoder = new TextEncoder();
    let zipped: Uint8Array[] = [];
    const zip = new Zip((err, chunk) => {
      if (err) throw err;
      if (chunk.length > 0) zipped.push(chunk);
    });
    const handOn = async () => {
      const chunks = zipped;
      zipped = [];
      for (const chunk of chunks) await writer.write(chunk);
    };
    const sheets = Math.max(1, Math.ceil(recordCount / sheetRows));
    for (const [name, xml] of packageParts(sheets)) {
      const part = new ZipDeflate(name);
      zip.add(part);
      part.push(encoder.encode(xml), true);
    }
    const layout = sheetLayout(record);
    let sheet = 0;
    let file = new ZipDeflate(sheetPath(sheet));
    zip.add(file);
    let xml = layout.head + layout.header;
    let rows = 0;
    for await (const lines of recordLineBatches(bucket, jobId, units)) {
      for (const line of lines) {
        if (rows === sheetRows) {
          // recordCount said how many sheets the workbook names: more records than it counted would fall outside them.
          if (sheet + 1 === sheets) throw new Error(`job ${jobId} has more records than its count of ${recordCount}`);
          file.push(encoder.encode(xml + layout.tail), true);
          file = new ZipDeflate(sheetPath(++sheet));
          zip.add(file);
          xml = layout.head + layout.header;
          rows = 0;
        }
        xml += layout.row(JSON.parse(line) as Record<string, unknown>, ++rows + 1);
        if (xml.length >= CHUNK_CHARS) {
          file.push(encoder.encode(xml));
          xml = "";
          await handOn();
        }
      }
    }
    file.push(encoder.encode(xml + layout.tail), true);
    // A count larger than the records leaves sheets the workbook names: each gets its header.
    while (++sheet < sheets) {
      file = new ZipDeflate(sheetPath(sheet));
      zip.add(file);
      file.push(encoder.encode(layout.head + layout.header + layout.tail), true);
    }
    zip.end();
    await handOn();
    await writer.close();
  };
  pump().catch((err) => writable.abort(err));
  return readable;
}
