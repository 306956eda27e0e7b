import { type FinishedUnit, holdsArrayItems, type ResultsReader, storedRuns, unitPart } from "./unit-results";

const NEWLINE = 0x0a;
const COMMA = 0x2c;
/** What ends every line of an object of array items: `,` and the newline. */
const ITEM_END = 2;

/**
 * The results document, streamed as stored bytes. A unit's JSON lines are array items (`{...},\n`, ARRAY_ITEM_LINES),
 * so each run of units' part (`storedRuns`: units stored together, one ranged read) is piped into the runtime's identity stream untouched, as the CSV export pipes rows, the
 * document's last unit read two bytes short to leave its final comma out. Objects stored before that hold bare lines
 * (`{...}\n`): JSON.stringify writes no raw newline inside a record (UTF-8 never has the byte inside a character
 * either), so each newline of theirs becomes the comma, in JavaScript. Memory stays flat whatever the job's size.
 */
export function jsonResults(bucket: ResultsReader, head: { jobId: string; schema: string; totalCount: number }, units: FinishedUnit[]): ReadableStream<Uint8Array> {
  const { readable, writable } = new IdentityTransformStream();
  const stored = storedRuns(units);
  const write = async (bytes: Uint8Array) => {
    const writer = writable.getWriter();
    await writer.write(bytes);
    writer.releaseLock();
  };
  const open = (at: number) => unitPart(bucket, head.jobId, stored[at]!, "json", at === stored.length - 1 ? ITEM_END : 0);
  const pump = async () => {
    const encoder = new TextEncoder();
    const frame = encoder.encode(`{"jobId":${JSON.stringify(head.jobId)},"schema":${JSON.stringify(head.schema)},"totalCount":${head.totalCount},"data":[`);
    // The first run is asked for while the document's start waits for the response's reader (timedReader).
    const [, opened] = await Promise.all([write(frame), stored.length > 0 ? open(0) : null]);
    // After a unit of bare lines, the next unit's first record needs the comma its last line did not carry.
    let commaOwed = false;
    for (const [at, unit] of stored.entries()) {
      if (commaOwed) await write(Uint8Array.of(COMMA));
      const last = at === stored.length - 1;
      const object = at === 0 ? opened : await open(at);
      // A committed unit's object is never deleted while its job's results are served: a gap would corrupt the document.
      if (!object) throw new Error(`results object of unit ${unit.unitIndex} is missing`);
      if (holdsArrayItems(object)) {
        await object.body.pipeTo(writable, { preventClose: true });
        commaOwed = false;
      } else {
        // Bare lines, read whole: a short read of the last unit left out two bytes of its record, not a comma.
        if (last) await object.body.cancel();
        await writeBareLines(last ? (await unitPart(bucket, head.jobId, unit, "json"))!.body : object.body, write);
        commaOwed = true;
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
  let held: Uint8Array | null = null;
  const reader = body.getReader();
  for (let read = await reader.read(); !read.done; read = await reader.read()) {
    const chunk = read.value;
    for (let i = 0; i < chunk.length; i++) if (chunk[i] === NEWLINE) chunk[i] = COMMA;
    if (held) await write(held);
    // The stream's last byte is the final newline, now a comma: every chunk waits until the next shows it was not last.
    held = chunk;
  }
  if (held && held.length > 1) await write(held.subarray(0, held.length - 1));
}
