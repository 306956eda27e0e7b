import { Hono } from "hono";
import { RequestGate } from "../worker/domain/api-keys/request-gate";

/**
 * The floor of bench/api: what a request of the service cannot go below in this runtime, the "a create is
 * the gate plus one insert". A GET counts one request in the service's own gate object (RequestGate.hit, one RPC
 * with its SQLite windows); a POST counts one and inserts one row in D1. Nothing else: no key lookup, no routing
 * table, no validation. The service's ratios to this floor say what its own work costs beyond the two round trips.
 */
type Env = { Bindings: { DB: D1Database; REQUEST_GATES: DurableObjectNamespace<RequestGate> } };

let tableReady: Promise<unknown> | null = null;

const app = new Hono<Env>();
app.get("/floor", async (c) => c.json(await c.env.REQUEST_GATES.getByName("floor").hit()));
app.post("/floor", async (c) => {
  const [decision, body] = await Promise.all([c.env.REQUEST_GATES.getByName("floor").hit(), c.req.text()]);
  tableReady ??= c.env.DB.prepare("CREATE TABLE IF NOT EXISTS rows (id TEXT PRIMARY KEY, body TEXT NOT NULL, created_at INTEGER NOT NULL)").run();
  await tableReady;
  const id = crypto.randomUUID();
  await c.env.DB.prepare("INSERT INTO rows (id, body, created_at) VALUES (?, ?, ?)").bind(id, body, Date.now()).run();
  return c.json({ id, remaining: decision.remaining }, 201);
});

export { RequestGate };
export default app;
