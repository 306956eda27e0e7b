import { env } from "cloudflare:workers";
import { expect, vi } from "vitest";
import { findRequestLog } from "../../../worker/domain/request-logs/store";
import { call } from "./helpers";

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
