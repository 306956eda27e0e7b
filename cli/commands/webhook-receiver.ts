import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { verifyWebhook, type WebhookEvent } from "../../client/src/webhooks";

export { WEBHOOK_EVENT_TYPES } from "../../client/src/webhooks";

async function bodyOf(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

export interface Receiver {
  port: number;
  /** The endpoint's signing secret, known once the endpoint exists; deliveries before that are refused. */
  setSecret(secret: string): void;
  close(): Promise<void>;
}

/**
 * A local HTTP endpoint that hands on each delivery whose X-SVC-Signature
 * verifies (200) and refuses the rest (400), so the sender retries them.
 */
export async function startReceiver(port: number, onEvent: (event: WebhookEvent) => void, onRefused: (reason: string) => void): Promise<Receiver> {
  let secret: string | undefined;
  const server: Server = createServer(async (request, response) => {
    const body = await bodyOf(request);
    try {
      if (secret === undefined) throw new Error("no endpoint yet");
      onEvent(await verifyWebhook(body, request.headers["x-svc-signature"] as string | undefined, secret));
      response.writeHead(200).end();
    } catch (err) {
      onRefused((err as Error).message);
      response.writeHead(400).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return {
    port: (server.address() as AddressInfo).port,
    setSecret: (value) => void (secret = value),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
