import { Hono } from "hono";

/** The baseline of bench/api: a bare Hono route in the same workerd runtime, no auth, no storage. */
const app = new Hono();
app.get("/bare", (c) => c.json({ ok: true }));
app.post("/bare", async (c) => c.json(await c.req.json(), 201));

export default app;
