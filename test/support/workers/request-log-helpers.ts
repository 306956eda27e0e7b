import { env } from "cloudflare:workers";
import { expect, vi } from "vitest";
import type { RequestLogEntry } from "../../../worker/domain/request-logs/messages";
import { findRequestLog } from "../../../worker/domain/request-logs/store";
import { call, type TestWorkspace } from "./helpers";

/** Sends a request and answers its X-Request-Id beside its status. */
export async function sent(path: string, init: Parameters<typeof call>[1]): Promise<{ requestId: string; status: number }> {
  const response = await call(path, init);
  await response.arrayBuffer();
  return { requestId: response.headers.get("X-Request-Id")!, status: response.status };
}

/** Waits until the queue's consumer has written every one of `requestIds` (the log is written after the answer). */
export async function logged(workspaceId: string, ...requestIds: string[]): Promise<void> {
  await vi.waitFor(
    async () => {
      for (const id of requestIds) expect(await findRequestLog(env.DB, workspaceId, id), id).toBeDefined();
    },
    { timeout: 30_000, interval: 100 },
  );
}

/** A request-log id of its own, named for what a test asks of it. */
export const logId = (name = "") => `req_${name}${crypto.randomUUID().replaceAll("-", "")}`;

/** A log entry of `ws`'s key as the consumer writes one: a GET of the provider list answered 200 now, unless `entry` says otherwise. */
export function logEntry(ws: TestWorkspace, entry: Partial<RequestLogEntry> = {}): RequestLogEntry {
  return { id: logId(), workspaceId: ws.workspaceId, apiKeyId: ws.apiKeyId, apiKeyPrefix: ws.apiKey.slice(0, 10), method: "GET", path: "/api/v1/providers", status: 200, latencyMs: 3, createdAt: Date.now(), ...entry };
}
