import { strFromU8, unzipSync } from "fflate";

/** A cell as Excel reads it: its type (`inlineStr` text, `b` boolean, `n` number), its style's number format, its value. */
export interface XlsxCell {
  type: "inlineStr" | "b" | "n";
  /** The number format of the cell's style (`@` text, `yyyy-mm-dd` …, `General`). */
  format: string;
  value: string;
}

export interface XlsxWorkbook {
  /** Every part of the package, by path. */
  parts: string[];
  sheetNames: string[];
  /** Each sheet's rows, in order, as arrays of cells (null where a row has no cell in that column). */
  sheets: (XlsxCell | null)[][][];
}

const BUILT_IN_FORMATS: Record<string, string> = { "0": "General", "49": "@" };
const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };

/** Text as an XML reader and then Excel decode it: entities and character references, then `_xHHHH_` escapes. */
function decodeText(xml: string): string {
  const unescaped = xml.replace(/&(#x[0-9a-fA-F]+|#\d+|\w+);/g, (_, ref: string) =>
    ref.startsWith("#x") ? String.fromCodePoint(parseInt(ref.slice(2), 16)) : ref.startsWith("#") ? String.fromCodePoint(Number(ref.slice(1))) : ENTITIES[ref]!,
  );
  return unescaped.replace(/_x([0-9A-Fa-f]{4})_/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

const columnIndex = (ref: string) => [...ref.replace(/\d+$/, "")].reduce((n, ch) => n * 26 + ch.charCodeAt(0) - 64, 0) - 1;

/**
 * Opens an .xlsx the way a test needs to: unzips it with fflate and reads the workbook, the styles and each sheet's
 * cells out of their XML (the package is ours and regular, so patterns read it; a malformed part fails them).
 */
export function readXlsx(bytes: Uint8Array): XlsxWorkbook {
  const files = unzipSync(bytes);
  const part = (path: string) => {
    const file = files[path];
    if (!file) throw new Error(`no ${path} in the package`);
    return strFromU8(file);
  };
  const formats: Record<string, string> = { ...BUILT_IN_FORMATS };
  const styles = part("xl/styles.xml");
  for (const [, id, code] of styles.matchAll(/<numFmt numFmtId="(\d+)" formatCode="([^"]*)"\/>/g)) formats[id!] = decodeText(code!);
  const xfs = [...(/<cellXfs[^>]*>(.*?)<\/cellXfs>/s.exec(styles)?.[1] ?? "").matchAll(/<xf numFmtId="(\d+)"/g)].map((m) => formats[m[1]!] ?? `#${m[1]}`);
  const sheetNames = [...part("xl/workbook.xml").matchAll(/<sheet name="([^"]+)"/g)].map((m) => decodeText(m[1]!));
  const sheets = sheetNames.map((_, i) =>
    [...part(`xl/worksheets/sheet${i + 1}.xml`).matchAll(/<row r="\d+">(.*?)<\/row>/gs)].map(([, cells]) => {
      const row: (XlsxCell | null)[] = [];
      for (const [, ref, attrs, body] of cells!.matchAll(/<c r="([A-Z]+\d+)"([^>]*)>(.*?)<\/c>/gs)) {
        const type = (/ t="(\w+)"/.exec(attrs!)?.[1] ?? "n") as XlsxCell["type"];
        const style = Number(/ s="(\d+)"/.exec(attrs!)?.[1] ?? 0);
        const value = type === "inlineStr" ? decodeText(/<t[^>]*>(.*?)<\/t>/s.exec(body!)![1]!) : /<v>(.*?)<\/v>/.exec(body!)![1]!;
        const at = columnIndex(ref!);
        while (row.length < at) row.push(null);
        row[at] = { type, format: xfs[style]!, value };
      }
      return row;
    }),
  );
  return { parts: Object.keys(files), sheetNames, sheets };
}

/** Excel's serial day count (days since 1899-12-30) as the wall-clock time it shows, `YYYY-MM-DDTHH:MM:SS`. */
export const serialTime = (serial: number) => new Date(Math.round((serial - 25_569) * 86_400_000)).toISOString().slice(0, 19);
