import type { FinishedUnit } from "../jobs/store";
import { holdsArrayItems, unitPart } from "./unit-results";

const NEWLINE = 0x0a;
const COMMA = 0x2c;
/** What ends every line of an object of array items: `,` and the newline. */
const ITEM_END = 2;

/**
 * The results document, streamed as stored bytes. A unit's JSON lines are array items (`{...},\n`, ARRAY_ITEM_LINES),
 * so a unit's part is piped into the runtime's identity stream untouched, as the CSV export pipes rows, and only the
 * document's last unit is read in JavaScript, to leave its final comma out. Objects stored before that hold bare lines
 * (`{...}\n`): JSON.stringify writes no raw newline inside a record (UTF-8 never has the byte inside a character
 * either), so each newline of theirs becomes the comma. Memory stays flat whatever the job's size.
 */
export function jsonResults(bucket: R2Bucket, head: { jobId: string; schema: string; totalCount: number }, units: FinishedUnit[]): ReadableStream<Uint8Array> {
  const { readable, writable } = new IdentityTransformStream();
  const stored = units.filter((unit) => unit.resultId !== null);
  const pump = async () => {
    const write = async (bytes: Uint8Array) => {
      const writer = writable.getWriter();
      await writer.write(bytes);
      writer.releaseLock();
    };
    const encoder = new TextEncoder();
    await write(encoder.encode(`{"jobId":${JSON.stringify(head.jobId)},"schema":${JSON.stringify(head.schema)},"totalCount":${head.totalCount},"data":[`));
    // After a unit of bare lines, the next unit's first record needs the comma its last line did not carry.
    let commaOwed = false;
    for (const [at, unit] of stored.entries()) {
      const object = await unitPart(bucket, head.jobId, unit, "ndjson");
      // A committed unit's object is never deleted while its job's results are served: a gap would corrupt the document.
      if (!object) throw new Error(`results object of unit ${unit.unitIndex} is missing`);
      if (commaOwed) await write(Uint8Array.of(COMMA));
      const last = at === stored.length - 1;
      if (!holdsArrayItems(object)) {
        await writeBareLines(object.body, write);
        commaOwed = true;
      } else if (!last) {
        await object.body.pipeTo(writable, { preventClose: true });
        commaOwed = false;
      } else {
        await writeAllBut(object.body, ITEM_END, write);
      }
    }
    await write(encoder.encode("]}"));
    await writable.close();
  };
  pump().catch((err) => writable.abort(err));
  return readable;
}

/** Bare JSON lines as array items: every newline a comma, the last one left out. */
async function writeBareLines(body: ReadableStream<Uint8Array>, write: (bytes: Uint8Array) => Promise<void>): Promise<void> {
  await writeAllBut(body, 1, async (chunk) => {
    for (let i = 0; i < chunk.length; i++) if (chunk[i] === NEWLINE) chunk[i] = COMMA;
    await write(chunk);
  });
}

/** Writes a stream's bytes except its last `held` ones, holding back only as many bytes as that needs. */
async function writeAllBut(body: ReadableStream<Uint8Array>, held: number, write: (bytes: Uint8Array) => Promise<void>): Promise<void> {
  let tail = new Uint8Array(0);
  const reader = body.getReader();
  for (let read = await reader.read(); !read.done; read = await reader.read()) {
    const bytes = tail.length ? concat(tail, read.value) : read.value;
    if (bytes.length > held) await write(bytes.subarray(0, bytes.length - held));
    tail = bytes.slice(Math.max(0, bytes.length - held));
  }
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const joined = new Uint8Array(a.length + b.length);
  joined.set(a);
  joined.set(b, a.length);
  return joined;
}
