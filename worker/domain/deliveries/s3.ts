import { AwsClient } from "aws4fetch";
import type { S3Config } from "./config";

/** S3's smallest multipart part but the last: a larger file goes up in parts this big, so a worker holds one at a time. */
const PART_BYTES = 8 * 1024 * 1024;

/** Reads a stream in pieces of `size` bytes (the last shorter), one at a time. */
async function* pieces(body: ReadableStream<Uint8Array>, size: number): AsyncGenerator<Uint8Array> {
  let held: Uint8Array[] = [];
  let heldBytes = 0;
  for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
    held.push(chunk);
    heldBytes += chunk.byteLength;
    while (heldBytes >= size) {
      const joined = concat(held, heldBytes);
      yield joined.subarray(0, size);
      held = [joined.subarray(size)];
      heldBytes -= size;
    }
  }
  yield concat(held, heldBytes);
}

function concat(chunks: Uint8Array[], bytes: number): Uint8Array {
  const out = new Uint8Array(bytes);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}

/** At most this much of an answer is read: S3's own answers (an UploadId, an error's Code) are far shorter. */
const ANSWER_BYTES = 16 * 1024;

/** The first `limit` bytes of an answer's body as text; the rest is never read. */
async function head(answer: Response, limit = ANSWER_BYTES): Promise<string> {
  if (!answer.body) return "";
  const reader = answer.body.getReader();
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  try {
    while (bytes < limit) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      bytes += value.byteLength;
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  return new TextDecoder().decode(concat(chunks, bytes).subarray(0, limit));
}

/**
 * A failed answer becomes its status and S3's error code (`<Code>AccessDenied</Code>`, letters and digits only), never
 * its body: whatever a destination answers (an internal page behind a proxy, say) must not reach the route's log.
 * A redirect is a failure too: requests are made with `redirect: "manual"`, so none is followed inward.
 */
async function ok(answer: Response, what: string): Promise<Response> {
  if (answer.status >= 200 && answer.status < 300) return answer;
  const code = /<Code>([A-Za-z][A-Za-z0-9.]{0,63})<\/Code>/.exec(await head(answer))?.[1];
  throw new Error(`${what}: S3 answered ${answer.status}${code ? ` ${code}` : ""}`);
}

/** Every request to the route's endpoint: signed, and never following a redirect (the endpoint was checked, its redirect's target was not). */
const send = (s3: AwsClient, url: string, init: RequestInit) => s3.fetch(url, { ...init, redirect: "manual" });

/**
 * Puts one object into the route's bucket (path-style, SigV4 by aws4fetch): in one PUT when it fits a part, else
 * as a multipart upload, aborted if a part fails so no half object is left. Returns its size.
 */
export async function putS3Object(config: S3Config, secretAccessKey: string, key: string, body: ReadableStream<Uint8Array>, contentType: string): Promise<number> {
  const s3 = new AwsClient({ accessKeyId: config.accessKeyId, secretAccessKey, service: "s3", region: config.region });
  const url = `${config.endpoint.replace(/\/$/, "")}/${config.bucket}/${key.split("/").map(encodeURIComponent).join("/")}`;
  const parts = pieces(body, PART_BYTES);
  const first = (await parts.next()).value!;
  const second = await parts.next();
  if (second.done) {
    await ok(await send(s3, url, { method: "PUT", body: first, headers: { "Content-Type": contentType } }), `PUT ${key}`);
    return first.byteLength;
  }
  const started = await head(await ok(await send(s3, `${url}?uploads`, { method: "POST", headers: { "Content-Type": contentType } }), `start ${key}`));
  const uploadId = /<UploadId>([^<]+)<\/UploadId>/.exec(started)?.[1];
  if (!uploadId) throw new Error(`start ${key}: no UploadId in S3's answer`);
  const etags: string[] = [];
  let bytes = 0;
  try {
    const upload = async (part: Uint8Array) => {
      const answer = await ok(await send(s3, `${url}?partNumber=${etags.length + 1}&uploadId=${encodeURIComponent(uploadId)}`, { method: "PUT", body: part }), `part ${etags.length + 1} of ${key}`);
      etags.push(answer.headers.get("ETag") ?? "");
      bytes += part.byteLength;
    };
    await upload(first);
    await upload(second.value!);
    for await (const part of parts) if (part.byteLength > 0) await upload(part);
    const manifest = `<CompleteMultipartUpload>${etags.map((etag, i) => `<Part><PartNumber>${i + 1}</PartNumber><ETag>${etag}</ETag></Part>`).join("")}</CompleteMultipartUpload>`;
    await head(await ok(await send(s3, `${url}?uploadId=${encodeURIComponent(uploadId)}`, { method: "POST", body: manifest }), `complete ${key}`));
    return bytes;
  } catch (err) {
    await send(s3, `${url}?uploadId=${encodeURIComponent(uploadId)}`, { method: "DELETE" }).then((answer) => answer.body?.cancel()).catch(() => undefined);
    throw err;
  }
}
