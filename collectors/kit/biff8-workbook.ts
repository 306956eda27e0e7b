import CFB from "cfb";

/**
 * A strict reader of the binary Excel 97–2003 workbook (BIFF8, [MS-XLS]) inside its compound file ([MS-CFB], read by
 * `cfb`): the sheets' names and cell values, nothing of formatting. What it does not know it refuses with
 * `WorkbookUnreadable`, never a guessed cell: an adapter reads that as a file it cannot use, not as the institution's
 * answer (docs/institutions/hometax.md §11.2b).
 */
export class WorkbookUnreadable extends Error {}

/** A cell's value: text, a number (NUMBER, RK, a formula's cached number), or null (blank, or not one of those). */
export type Cell = string | number | null;

export interface Sheet {
  name: string;
  /** Rows from the sheet's first (row 0), each as wide as its last cell; rows without cells are empty. */
  rows: Cell[][];
}

export interface WorkbookLimits {
  /** Largest file read at all. */
  maxBytes: number;
  /** Rows one sheet may hold (its last row index + 1). */
  maxRows: number;
}

/** BIFF8 holds at most 256 columns ([MS-XLS] 2.5.15 Col256U). */
const MAX_COLUMNS = 256;
/** `BOF.vers` of BIFF8; its `dt` of the globals and of a worksheet. */
const BIFF8 = 0x0600;
const GLOBALS = 0x0005;
const WORKSHEET = 0x0010;

const RECORD = {
  FORMULA: 0x0006,
  EOF: 0x000a,
  FILEPASS: 0x002f,
  CONTINUE: 0x003c,
  CODEPAGE: 0x0042,
  BOUNDSHEET: 0x0085,
  MULRK: 0x00bd,
  MULBLANK: 0x00be,
  SST: 0x00fc,
  LABELSST: 0x00fd,
  BLANK: 0x0201,
  NUMBER: 0x0203,
  LABEL: 0x0204,
  STRING: 0x0207,
  RK: 0x027e,
  BOF: 0x0809,
} as const;

/** What may stand between a string formula and its STRING: the shared, array or table formula it belongs to ([MS-XLS] 2.4.127). */
const BEFORE_STRING = new Set([0x04bc, 0x0221, 0x0236]);

const refuse = (why: string): never => {
  throw new WorkbookUnreadable(why);
};

interface Rec {
  type: number;
  at: number;
  data: Uint8Array;
}

/** The stream's records from `start`: 2 bytes of type, 2 of length, then the data, each inside the stream. */
function* records(stream: Uint8Array, start: number): Generator<Rec> {
  const view = new DataView(stream.buffer, stream.byteOffset, stream.byteLength);
  for (let at = start; at < stream.length; ) {
    if (at + 4 > stream.length) refuse(`a record header cut off at byte ${at}`);
    const type = view.getUint16(at, true);
    const length = view.getUint16(at + 2, true);
    if (at + 4 + length > stream.length) refuse(`record 0x${type.toString(16)} at byte ${at} runs past the stream`);
    yield { type, at, data: stream.subarray(at + 4, at + 4 + length) };
    at += 4 + length;
  }
}

/** A record's data read in order; a read past its end is a malformed record. */
class Reader {
  private at = 0;
  private readonly view: DataView;
  constructor(
    private readonly data: Uint8Array,
    private readonly what: string,
  ) {
    this.view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  }
  get left(): number {
    return this.data.length - this.at;
  }
  private need(n: number): number {
    if (this.at + n > this.data.length) refuse(`${this.what} shorter than its fields`);
    const at = this.at;
    this.at += n;
    return at;
  }
  u8 = () => this.view.getUint8(this.need(1));
  u16 = () => this.view.getUint16(this.need(2), true);
  u32 = () => this.view.getUint32(this.need(4), true);
  f64 = () => this.view.getFloat64(this.need(8), true);
  bytes = (n: number) => this.data.subarray(this.need(n), this.at);
  /** Characters of a string: UTF-16LE with `fHighByte`, else one byte each, the low byte of UTF-16 ([MS-XLS] 2.5.293). */
  chars(count: number, highByte: boolean): string {
    const raw = this.bytes(highByte ? count * 2 : count);
    if (!highByte) return String.fromCharCode(...raw);
    let out = "";
    for (let i = 0; i < raw.length; i += 2) out += String.fromCharCode(raw[i]! | (raw[i + 1]! << 8));
    return out;
  }
  /** `fHighByte` flags: 0 or 1; other bits set where only that bit may be is a layout this reader does not know. */
  highByte(flags: number): boolean {
    if (flags & ~0x01) refuse(`${this.what} with string flags 0x${flags.toString(16)}`);
    return flags === 1;
  }
  /** XLUnicodeString: 2-byte count, flags, characters (LABEL, STRING). */
  unicodeString(): string {
    const count = this.u16();
    return this.chars(count, this.highByte(this.u8()));
  }
  done(): void {
    if (this.at !== this.data.length) refuse(`${this.what} longer than its fields`);
  }
}

/** An RK number ([MS-XLS] 2.5.217): a 30-bit integer or the high 30 bits of a double, either maybe divided by 100. */
function rk(value: number): number {
  const hundredths = (value & 0x01) !== 0;
  let n: number;
  if (value & 0x02) n = value >> 2;
  else {
    const view = new DataView(new ArrayBuffer(8));
    view.setUint32(4, value & 0xfffffffc, true);
    n = view.getFloat64(0, true);
  }
  return hundredths ? n / 100 : n;
}

/**
 * The shared strings (SST and its CONTINUE records, [MS-XLS] 2.4.265): a string's characters may go on in the next
 * record, which then starts with a fresh `fHighByte` byte; rich-text runs and phonetic data are skipped, across
 * records too.
 */
function sharedStrings(parts: Uint8Array[]): string[] {
  let index = 0;
  let reader = new Reader(parts[0]!, "SST");
  const next = (): Reader => {
    index++;
    if (index >= parts.length) refuse("SST ends inside a string");
    return (reader = new Reader(parts[index]!, "SST CONTINUE"));
  };
  const skip = (n: number) => {
    for (let left = n; left > 0; ) {
      if (reader.left === 0) next();
      const step = Math.min(left, reader.left);
      reader.bytes(step);
      left -= step;
    }
  };
  reader.u32();
  const unique = reader.u32();
  const strings: string[] = [];
  for (let s = 0; s < unique; s++) {
    if (reader.left === 0) next();
    const count = reader.u16();
    const flags = reader.u8();
    if (flags & ~0x0d) refuse(`SST string ${s} with flags 0x${flags.toString(16)}`);
    const runs = flags & 0x08 ? reader.u16() : 0;
    const phonetic = flags & 0x04 ? reader.u32() : 0;
    let high = (flags & 0x01) !== 0;
    let text = "";
    while (text.length < count) {
      if (reader.left === 0) {
        next();
        high = reader.highByte(reader.u8());
      }
      const fits = Math.min(count - text.length, high ? Math.floor(reader.left / 2) : reader.left);
      if (fits === 0) refuse(`SST string ${s} splits a character`);
      text += reader.chars(fits, high);
    }
    skip(runs * 4 + phonetic);
    strings.push(text);
  }
  if (reader.left !== 0 || index !== parts.length - 1) refuse("SST longer than its strings");
  return strings;
}

interface Bound {
  name: string;
  offset: number;
}

/** The globals: BOF, CODEPAGE, SST, one BOUNDSHEET per sheet, EOF; a password-protected file is refused. */
function globals(stream: Uint8Array): { sheets: Bound[]; strings: string[]; end: number } {
  const sheets: Bound[] = [];
  let sst: Uint8Array[] | null = null;
  let inSst = false;
  let first = true;
  for (const rec of records(stream, 0)) {
    const r = new Reader(rec.data, `record 0x${rec.type.toString(16)} at byte ${rec.at}`);
    if (first) {
      if (rec.type !== RECORD.BOF || r.u16() !== BIFF8 || r.u16() !== GLOBALS) refuse("the workbook does not open with BIFF8's globals BOF");
      first = false;
      continue;
    }
    if (rec.type === RECORD.CONTINUE && inSst) {
      sst!.push(rec.data);
      continue;
    }
    inSst = false;
    switch (rec.type) {
      case RECORD.FILEPASS:
        refuse("the workbook is encrypted");
        break;
      case RECORD.CODEPAGE:
        // BIFF8 strings are Unicode whatever the code page says ([MS-XLS] 2.5.293): read for its form only.
        r.u16();
        r.done();
        break;
      case RECORD.BOUNDSHEET: {
        const offset = r.u32();
        r.u8();
        const kind = r.u8();
        const count = r.u8();
        const name = r.chars(count, r.highByte(r.u8()));
        r.done();
        // Chart, macro and dialog sheets hold no cells this reader gives.
        if (kind === 0) sheets.push({ name, offset });
        break;
      }
      case RECORD.SST:
        if (sst) refuse("a second SST");
        sst = [rec.data];
        inSst = true;
        break;
      case RECORD.EOF:
        return { sheets, strings: sst ? sharedStrings(sst) : [], end: rec.at + 4 };
    }
  }
  return refuse("the globals end without EOF");
}

/** One worksheet's cells from its BOF to its EOF. */
function worksheet(stream: Uint8Array, bound: Bound, strings: string[], limits: WorkbookLimits): Sheet {
  const rows: Cell[][] = [];
  const put = (row: number, col: number, value: Cell) => {
    if (row >= limits.maxRows) refuse(`sheet ${bound.name} has a row past ${limits.maxRows}`);
    if (col >= MAX_COLUMNS) refuse(`sheet ${bound.name} has a column past ${MAX_COLUMNS}`);
    while (rows.length <= row) rows.push([]);
    const cells = rows[row]!;
    while (cells.length < col) cells.push(null);
    cells[col] = value;
  };
  const stringAt = (index: number) => strings[index] ?? refuse(`sheet ${bound.name} names shared string ${index} of ${strings.length}`);
  const single: Record<number, (r: Reader) => Cell> = {
    [RECORD.LABELSST]: (r) => stringAt(r.u32()),
    [RECORD.LABEL]: (r) => r.unicodeString(),
    [RECORD.NUMBER]: (r) => r.f64(),
    [RECORD.RK]: (r) => rk(r.u32()),
    [RECORD.BLANK]: () => null,
  };
  /** A formula whose cached value is a string: that string is the STRING record that follows it. */
  let pendingString: { row: number; col: number } | null = null;
  let first = true;
  for (const rec of records(stream, bound.offset)) {
    const r = new Reader(rec.data, `sheet ${bound.name} record 0x${rec.type.toString(16)} at byte ${rec.at}`);
    if (first) {
      if (rec.type !== RECORD.BOF || r.u16() !== BIFF8 || r.u16() !== WORKSHEET) refuse(`sheet ${bound.name} does not start with a BIFF8 worksheet BOF`);
      first = false;
      continue;
    }
    if (pendingString && !BEFORE_STRING.has(rec.type) && rec.type !== RECORD.STRING) refuse(`sheet ${bound.name}: a string formula without its STRING`);
    const value = single[rec.type];
    if (value) {
      // A cell of its own: row, column, format index, then its value.
      const [row, col] = [r.u16(), r.u16()];
      r.u16();
      put(row, col, value(r));
      r.done();
      continue;
    }
    switch (rec.type) {
      case RECORD.EOF:
        return { name: bound.name, rows };
      case RECORD.BOF:
        refuse(`sheet ${bound.name} holds an embedded substream`);
        break;
      case RECORD.MULRK: {
        if ((rec.data.length - 6) % 6 !== 0) refuse(`sheet ${bound.name}: a MULRK of ${rec.data.length} bytes`);
        const [row, firstCol] = [r.u16(), r.u16()];
        const count = (rec.data.length - 6) / 6;
        for (let i = 0; i < count; i++) {
          r.u16();
          put(row, firstCol + i, rk(r.u32()));
        }
        if (r.u16() !== firstCol + count - 1) refuse(`sheet ${bound.name}: a MULRK whose last column is not its cells'`);
        r.done();
        break;
      }
      case RECORD.MULBLANK: {
        if ((rec.data.length - 6) % 2 !== 0) refuse(`sheet ${bound.name}: a MULBLANK of ${rec.data.length} bytes`);
        const [row, firstCol] = [r.u16(), r.u16()];
        const count = (rec.data.length - 6) / 2;
        for (let i = 0; i < count; i++) r.u16();
        if (r.u16() !== firstCol + count - 1) refuse(`sheet ${bound.name}: a MULBLANK whose last column is not its cells'`);
        put(row, firstCol + count - 1, null);
        r.done();
        break;
      }
      case RECORD.FORMULA: {
        const [row, col] = [r.u16(), r.u16()];
        r.u16();
        const value = r.bytes(8);
        const cached = new DataView(value.buffer, value.byteOffset, 8);
        // 0xFFFF in the last two bytes marks a value that is not a number ([MS-XLS] 2.5.133 FormulaValue).
        if (cached.getUint16(6, true) !== 0xffff) put(row, col, cached.getFloat64(0, true));
        else if (value[0] === 0) pendingString = { row, col };
        // A cached boolean, error or empty string is not a value this reader gives.
        else put(row, col, null);
        break;
      }
      case RECORD.STRING: {
        if (!pendingString) refuse(`sheet ${bound.name}: a STRING without its formula`);
        put(pendingString!.row, pendingString!.col, r.unicodeString());
        r.done();
        pendingString = null;
        break;
      }
    }
  }
  return refuse(`sheet ${bound.name} ends without EOF`);
}

/** Every worksheet of a BIFF8 file, in the workbook's order. */
export function readWorkbook(file: Uint8Array, limits: WorkbookLimits): Sheet[] {
  if (file.length > limits.maxBytes) refuse(`a file of ${file.length} bytes, over ${limits.maxBytes}`);
  let container: ReturnType<typeof CFB.parse>;
  try {
    container = CFB.parse(file, { type: "buffer" });
  } catch (err) {
    return refuse(`not a compound file: ${(err as Error).message}`);
  }
  const entry = CFB.find(container, "Workbook");
  if (!entry || entry.type !== 2) refuse("no Workbook stream (BIFF5's Book, or not a workbook)");
  const stream = entry!.content instanceof Uint8Array ? entry!.content : Uint8Array.from(entry!.content);
  const { sheets, strings, end } = globals(stream);
  return sheets.map((bound) => {
    if (bound.offset < end || bound.offset >= stream.length) refuse(`sheet ${bound.name} starts at byte ${bound.offset}, outside the stream`);
    return worksheet(stream, bound, strings, limits);
  });
}
