import CFB from "cfb";

/**
 * A small writer of the binary Excel 97–2003 workbook (BIFF8, [MS-XLS]) in its compound file (`cfb`), for replicas
 * whose institution answers with one: sheets of text and numbers, no formatting. Text goes to the shared strings
 * (LABELSST), one byte a character where it can and UTF-16 where it must, split over CONTINUE records as Excel
 * splits them; whole numbers that fit go as RK, others as NUMBER; a null cell is left out.
 */
export type WrittenCell = string | number | null;

export interface WrittenSheet {
  name: string;
  rows: readonly (readonly WrittenCell[])[];
}

/** Most data one record holds ([MS-XLS] 2.1.4). */
const MAX_DATA = 8224;

class Bytes {
  readonly out: number[] = [];
  u8(v: number) {
    this.out.push(v & 0xff);
    return this;
  }
  u16(v: number) {
    return this.u8(v).u8(v >> 8);
  }
  u32(v: number) {
    return this.u16(v & 0xffff).u16(v >>> 16);
  }
  f64(v: number) {
    const view = new DataView(new ArrayBuffer(8));
    view.setFloat64(0, v, true);
    for (let i = 0; i < 8; i++) this.u8(view.getUint8(i));
    return this;
  }
  chars(text: string, high: boolean) {
    for (let i = 0; i < text.length; i++) {
      if (high) this.u16(text.charCodeAt(i));
      else this.u8(text.charCodeAt(i));
    }
    return this;
  }
}

const record = (type: number, data: number[] = []) => new Bytes().u16(type).u16(data.length).out.concat(data);
const bof = (kind: number) => record(0x0809, new Bytes().u16(0x0600).u16(kind).u16(0).u16(0x07cc).u32(0).u32(0x0206).out);
const EOF = record(0x000a);
const isWide = (text: string) => /[^\x00-\xff]/.test(text);

/** SST and its CONTINUE records: a string's head never splits; its characters may, the next record opening with their flag. */
function sst(strings: readonly string[], cells: number): number[] {
  const parts: Bytes[] = [new Bytes().u32(cells).u32(strings.length)];
  let current = parts[0]!;
  const room = () => MAX_DATA - current.out.length;
  for (const text of strings) {
    const high = isWide(text);
    if (room() < 3) parts.push((current = new Bytes()));
    current.u16(text.length).u8(high ? 1 : 0);
    for (let at = 0; at < text.length; ) {
      const fits = Math.min(text.length - at, Math.floor(room() / (high ? 2 : 1)));
      if (fits === 0) {
        parts.push((current = new Bytes().u8(high ? 1 : 0)));
        continue;
      }
      current.chars(text.slice(at, at + fits), high);
      at += fits;
    }
  }
  return parts.flatMap((part, i) => record(i === 0 ? 0x00fc : 0x003c, part.out));
}

/** An RK integer: 30 bits, shifted, with the integer flag ([MS-XLS] 2.5.217). */
const asRk = (n: number) => (Number.isInteger(n) && n >= -(2 ** 29) && n < 2 ** 29 ? ((n << 2) | 0x02) >>> 0 : null);

export function writeWorkbook(sheets: readonly WrittenSheet[]): Uint8Array {
  const strings: string[] = [];
  const index = new Map<string, number>();
  let stringCells = 0;
  const bodies = sheets.map((sheet) => {
    const cells: number[] = [];
    sheet.rows.forEach((row, r) =>
      row.forEach((value, c) => {
        if (value === null) return;
        const head = new Bytes().u16(r).u16(c).u16(0);
        if (typeof value === "string") {
          if (!index.has(value)) index.set(value, strings.push(value) - 1);
          stringCells++;
          cells.push(...record(0x00fd, head.u32(index.get(value)!).out));
          return;
        }
        const rk = asRk(value);
        cells.push(...(rk === null ? record(0x0203, head.f64(value).out) : record(0x027e, head.u32(rk).out)));
      }),
    );
    return [...bof(0x0010), ...cells, ...EOF];
  });
  const boundSheet = (name: string, offset: number) => record(0x0085, new Bytes().u32(offset).u8(0).u8(0).u8(name.length).u8(isWide(name) ? 1 : 0).chars(name, isWide(name)).out);
  // CODEPAGE 1200: UTF-16, what Excel writes in every BIFF8 file.
  const head = [...bof(0x0005), ...record(0x0042, new Bytes().u16(1200).out)];
  const tail = [...sst(strings, stringCells), ...EOF];
  let offset = head.length + sheets.reduce((n, sheet) => n + boundSheet(sheet.name, 0).length, 0) + tail.length;
  const bounds = sheets.flatMap((sheet, i) => {
    const bytes = boundSheet(sheet.name, offset);
    offset += bodies[i]!.length;
    return bytes;
  });
  const stream = Uint8Array.from([...head, ...bounds, ...tail, ...bodies.flat()]);
  const container = CFB.utils.cfb_new();
  CFB.utils.cfb_add(container, "Workbook", stream);
  return new Uint8Array(CFB.write(container, { type: "buffer" }) as Uint8Array);
}
