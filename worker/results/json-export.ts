import type { FinishedUnit } from "../jobs/store";
import { unitPart } from "./unit-results";

const NEWLINE = 0x0a;
const COMMA = 0x2c;

/**
 * The results document, streamed as bytes without parsing. A unit's stored JSON lines are records ended by newlines,
 * and JSON.stringify writes no raw newline inside one (UTF-8 never has the byte inside a character either), so each
 * newline becomes the array's comma, the unit's last one is left out, and one comma goes between units: no decoding,
 * no per-record work, and memory stays flat whatever the job's size.
 */
export function jsonResults(bucket: R2Bucket, head: { jobId: string; schema: string; totalCount: number }, units: FinishedUnit[]): ReadableStream<Uint8Array> {
  const { readable, writable } = new IdentityTransformStream();
  const pump = async () => {
    const writer = writable.getWriter();
    const encoder = new TextEncoder();
    await writer.write(encoder.encode(`{"jobId":${JSON.stringify(head.jobId)},"schema":${JSON.stringify(head.schema)},"totalCount":${head.totalCount},"data":[`));
    let first = true;
    for (const unit of units) {
      const body = await unitPart(bucket, head.jobId, unit, "ndjson");
      if (!body) continue;
      if (!first) await writer.write(Uint8Array.of(COMMA));
      first = false;
      // The ranged read is exactly the unit's lines: its last byte is the newline left out.
      let left = unit.csvOffset;
      const reader = body.getReader();
      for (let read = await reader.read(); !read.done; read = await reader.read()) {
        const chunk = read.value;
        left -= chunk.byteLength;
        for (let i = 0; i < chunk.length; i++) if (chunk[i] === NEWLINE) chunk[i] = COMMA;
        await writer.write(left === 0 ? chunk.subarray(0, chunk.length - 1) : chunk);
      }
    }
    await writer.write(encoder.encode("]}"));
    await writer.close();
  };
  pump().catch((err) => writable.abort(err));
  return readable;
}
