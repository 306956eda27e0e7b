import CFB from "cfb";
import { describe, expect, it } from "vitest";
import { writeWorkbook } from "../../sandbox/biff8-workbook";
import { readWorkbook, WorkbookUnreadable } from "./biff8-workbook";

const LIMITS = { maxBytes: 1024 * 1024, maxRows: 100 };

const u16 = (v: number) => [v & 0xff, (v >> 8) & 0xff];
const u32 = (v: number) => [...u16(v & 0xffff), ...u16(v >>> 16)];
const f64 = (v: number) => [...new Uint8Array(new Float64Array([v]).buffer)];
const rec = (type: number, data: number[] = []) => [...u16(type), ...u16(data.length), ...data];
const ascii = (s: string) => [...s].map((c) => c.charCodeAt(0));
const utf16 = (s: string) => [...s].flatMap((c) => u16(c.charCodeAt(0)));
const cellHead = (row: number, col: number) => [...u16(row), ...u16(col), ...u16(0)];

/**
 * A workbook written record by record from [MS-XLS], not by the sandbox's writer: globals with CODEPAGE, a
 * BOUNDSHEET, an SST whose second string goes on in a CONTINUE record that switches from one byte a character to
 * two, then a worksheet with every cell record the reader takes.
 */
function handBuilt(options: { globals?: number[]; sheet?: number[] } = {}): Uint8Array {
  const bof = (dt: number) => rec(0x0809, [...u16(0x0600), ...u16(dt), ...u16(0), ...u16(1997), ...u32(0), ...u32(0)]);
  const sst = rec(0x00fc, [...u32(2), ...u32(2), ...u16(2), 0x00, ...ascii("ab"), ...u16(4), 0x00, ...ascii("xy")]);
  const cont = rec(0x003c, [0x01, ...utf16("세계")]);
  const sheet = [
    ...bof(0x0010),
    ...rec(0x00fd, [...cellHead(0, 0), ...u32(0)]),
    ...rec(0x00fd, [...cellHead(0, 1), ...u32(1)]),
    ...rec(0x0204, [...cellHead(0, 2), ...u16(2), 0x01, ...utf16("품목")]),
    ...rec(0x0204, [...cellHead(0, 3), ...u16(3), 0x00, ...ascii("abc")]),
    ...rec(0x0203, [...cellHead(1, 0), ...f64(1.5)]),
    // RK: 1000 as an integer, then 12.34 as 1234 / 100.
    ...rec(0x027e, [...cellHead(1, 1), ...u32((1000 << 2) | 0x02)]),
    ...rec(0x027e, [...cellHead(1, 2), ...u32((1234 << 2) | 0x03)]),
    // MULRK over columns 3..4: -7 and the double 2.5 by its high 30 bits.
    ...rec(0x00bd, [...u16(1), ...u16(3), ...u16(0), ...u32(((-7 << 2) | 0x02) >>> 0), ...u16(0), ...f64(2.5).slice(4), ...u16(4)]),
    ...rec(0x0201, cellHead(2, 0)),
    ...rec(0x00be, [...u16(2), ...u16(1), ...u16(0), ...u16(0), ...u16(2)]),
    // A formula's cached number, then a cached string and its STRING record.
    ...rec(0x0006, [...cellHead(3, 0), ...f64(42), ...u16(0), ...u32(0), ...u16(0)]),
    ...rec(0x0006, [...cellHead(3, 1), 0x00, 0, 0, 0, 0, 0, 0xff, 0xff, ...u16(0), ...u32(0), ...u16(0)]),
    ...rec(0x0207, [...u16(2), 0x01, ...utf16("합계")]),
    ...(options.sheet ?? []),
    ...rec(0x000a),
  ];
  const globalsHead = [...bof(0x0005), ...rec(0x0042, u16(1200)), ...(options.globals ?? [])];
  const boundSheet = (offset: number) => rec(0x0085, [...u32(offset), 0, 0, 6, 0x00, ...ascii("Sheet1")]);
  const before = globalsHead.length + boundSheet(0).length + sst.length + cont.length + rec(0x000a).length;
  const stream = [...globalsHead, ...boundSheet(before), ...sst, ...cont, ...rec(0x000a), ...sheet];
  const container = CFB.utils.cfb_new();
  CFB.utils.cfb_add(container, "Workbook", Uint8Array.from(stream));
  return new Uint8Array(CFB.write(container, { type: "buffer" }) as Uint8Array);
}

const refusal = (file: Uint8Array, limits = LIMITS) => {
  try {
    readWorkbook(file, limits);
    return "read";
  } catch (err) {
    return err instanceof WorkbookUnreadable ? err.message : `not a refusal: ${String(err)}`;
  }
};

describe("the BIFF8 reader (collectors/kit/biff8-workbook.ts)", () => {
  it("reads a workbook built record by record: shared strings across CONTINUE, LABEL, NUMBER, RK, MULRK, blanks, formulas' cached values", () => {
    expect(readWorkbook(handBuilt(), LIMITS)).toEqual([
      {
        name: "Sheet1",
        rows: [
          ["ab", "xy세계", "품목", "abc"],
          [1.5, 1000, 12.34, -7, 2.5],
          [null, null, null],
          [42, "합계"],
        ],
      },
    ]);
  });

  it("reads what the sandbox's writer makes: Korean and Latin text over many CONTINUE records, whole and fractional numbers", () => {
    const rows = [["승인번호", "공급가액", "수량"], ...Array.from({ length: 1500 }, (_, i) => [`${20240101 + i}-가나다라-${"x".repeat(i % 40)}`, i * 1000, i + 0.25, null, 2 ** 31 + i])];
    const [sheet, second] = readWorkbook(writeWorkbook([{ name: "세금계산서", rows }, { name: "품목", rows: [["a"]] }]), { maxBytes: 8 * 1024 * 1024, maxRows: 2000 });
    expect(sheet!.name).toBe("세금계산서");
    expect(sheet!.rows).toEqual(rows.map((row) => (row.at(-1) === null ? row.slice(0, -1) : row)));
    expect(second).toEqual({ name: "품목", rows: [["a"]] });
  });

  it("refuses, never guesses: a file too large, a sheet too long, a cut record, a password, another format, a stray STRING", () => {
    const file = handBuilt();
    expect(refusal(file, { ...LIMITS, maxBytes: file.length - 1 })).toMatch(/over/);
    expect(refusal(file, { ...LIMITS, maxRows: 3 })).toMatch(/a row past 3/);
    expect(refusal(handBuilt({ sheet: [...u16(0x0203), ...u16(14), 0, 0] }))).toMatch(/runs past the stream|cut off/);
    expect(refusal(handBuilt({ sheet: rec(0x0203, cellHead(9, 0)) }))).toMatch(/shorter than its fields/);
    expect(refusal(handBuilt({ globals: rec(0x002f, u16(1)) }))).toMatch(/encrypted/);
    expect(refusal(handBuilt({ sheet: rec(0x0207, [...u16(1), 0x00, 0x41]) }))).toMatch(/STRING without its formula/);
    expect(refusal(new TextEncoder().encode("승인번호\t전송일자\r\n"))).toMatch(/not a compound file/);
    const book = CFB.utils.cfb_new();
    CFB.utils.cfb_add(book, "Book", Uint8Array.from(rec(0x0809, [...u16(0x0500), ...u16(0x0005)])));
    expect(refusal(new Uint8Array(CFB.write(book, { type: "buffer" }) as Uint8Array))).toMatch(/no Workbook stream/);
  });
});
