import { noArgs } from "../args";
import type { Command } from "../context";
import { EXIT, UsageError } from "../exit-codes";
import type { WebhookEventType } from "../../client/src/webhooks";

function line(event: { id: string; type: string; createdAt: string; data?: { object?: unknown } }): string {
  const object = (event.data?.object ?? {}) as Record<string, unknown>;
  const what = [object.id, object.kind ?? object.status].filter(Boolean).join(" ");
  return `${event.createdAt}  ${event.type}  ${event.id}  ${what}\n`;
}

export const webhooksListen: Command = {
  usage: "webhooks listen [--port PORT] [--url PUBLIC_URL] [--events TYPE,TYPE ...]",
  summary: "receive webhook events on a local endpoint and print each verified one until Ctrl-C (the endpoint is deleted then)",
  options: { port: { type: "string" }, url: { type: "string" }, events: { type: "string", multiple: true } },
  async run(ctx, { values, args }) {
    noArgs(args);
    // Loaded on use: only this command runs an HTTP server and verifies signatures.
    const { startReceiver, WEBHOOK_EVENT_TYPES } = await import("./webhook-receiver");
    const known: readonly string[] = WEBHOOK_EVENT_TYPES;
    const asked = ((values.events as string[] | undefined) ?? known).flatMap((e) => e.split(",")).filter(Boolean);
    const unknown = asked.find((e) => !known.includes(e));
    if (unknown) throw new UsageError(`unknown event ${unknown}; events: ${known.join(", ")}`);
    const events = asked as WebhookEventType[];
    const client = ctx.client();
    const receiver = await startReceiver(
      Number(values.port ?? 0),
      (event) => ctx.out.write(ctx.json ? `${JSON.stringify(event)}\n` : line(event)),
      (reason) => ctx.err.write(`refused a delivery: ${reason}\n`),
    );
    try {
      const url = (values.url as string | undefined) ?? `http://127.0.0.1:${receiver.port}/`;
      const endpoint = await client.createWebhookEndpoint({ url, events, description: "collect webhooks listen" }, { signal: ctx.signal });
      receiver.setSecret(endpoint.secret);
      ctx.err.write(`Listening on ${url} for ${events.join(", ")} (endpoint ${endpoint.id}); Ctrl-C to stop.\n`);
      await new Promise<void>((resolve) => (ctx.signal.aborted ? resolve() : ctx.signal.addEventListener("abort", () => resolve(), { once: true })));
      // The endpoint only made sense while this receiver runs.
      await client.deleteWebhookEndpoint(endpoint.id);
      ctx.err.write(`Deleted endpoint ${endpoint.id}.\n`);
    } finally {
      await receiver.close();
    }
    return EXIT.OK;
  },
};
