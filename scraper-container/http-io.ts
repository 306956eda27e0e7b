import type { IncomingMessage, ServerResponse } from "node:http";
import { jobError } from "../contracts/job-failures";
import { type FailureResponse, MAX_SCRAPER_BODY_BYTES, type PageReport } from "../contracts/scraper-protocol";

/** A request the scraper answers with a failure envelope before any adapter runs. */
export class HttpFailure extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly retryAfterSeconds?: number,
    /** What went wrong, for the worker's log (an SFTP server's refusal); never shown to partners as such. */
    readonly detail?: string,
  ) {
    super(code);
  }
}

// A request body the scraper will not read is the worker misbehaving, not the institution.
const tooLarge = () => new HttpFailure(413, "INTERNAL_ERROR");

/**
 * Reads a JSON object body of at most MAX_SCRAPER_BODY_BYTES. A larger one is
 * refused from its Content-Length, or as soon as the bytes pass the limit;
 * the rest is never read (sendFailure closes the connection).
 */
export function readJsonBody(req: IncomingMessage): Promise<Record<string, unknown>> {
  if (Number(req.headers["content-length"] ?? 0) > MAX_SCRAPER_BODY_BYTES) return Promise.reject(tooLarge());
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_SCRAPER_BODY_BYTES) return void chunks.push(chunk);
      req.off("data", onData).pause();
      reject(tooLarge());
    };
    req.on("data", onData);
    req.once("error", reject);
    req.once("end", () => {
      try {
        const value: unknown = JSON.parse(Buffer.concat(chunks).toString("utf8") || "{}");
        if (value && typeof value === "object" && !Array.isArray(value)) return resolve(value as Record<string, unknown>);
      } catch {
        // not JSON: refused below
      }
      reject(new HttpFailure(400, "PROVIDER_ERROR"));
    });
  });
}

/**
 * Every answer closes its connection. A kept-alive connection that the server drops after its idle timeout just as
 * the worker reuses it fails that call with a reset: a login lost as "scraper unreachable" (ENGINE_CRASHED). A job
 * makes a handful of calls, so a new connection each costs nothing worth that race.
 */
export function send(res: ServerResponse, status: number, payload?: unknown): void {
  res.writeHead(status, { Connection: "close", ...(payload === undefined ? {} : { "Content-Type": "application/json" }) });
  res.end(payload === undefined ? undefined : JSON.stringify(payload));
}

export function sendFailure(res: ServerResponse, status: number, code: string, retryAfterSeconds?: number, detail?: string, report?: PageReport): void {
  const error = jobError(code, retryAfterSeconds);
  const payload: FailureResponse = {
    failure: { code: error.code, message: error.message, ...(retryAfterSeconds === undefined ? {} : { retryAfterSeconds }), ...(detail === undefined ? {} : { detail }) },
    ...(report ? { report } : {}),
  };
  if (!res.req.complete) lingeringClose(res);
  send(res, status, payload);
}

const LINGER_MS = 2_000;

/**
 * An unread body (oversize, or a caller without the secret) ends the
 * connection with the answer, the way web servers close: our FIN after the
 * answer, then a short while discarding what the caller still sends. Closing
 * at once with its bytes unread makes the kernel answer with a reset, which
 * can destroy the answer before the caller has read it.
 */
function lingeringClose(res: ServerResponse): void {
  const socket = res.req.socket;
  res.once("finish", () => {
    socket.end();
    setTimeout(() => socket.destroy(), LINGER_MS).unref();
  });
}
