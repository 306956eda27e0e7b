import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { it } from "vitest";
import type { RunnerHub } from "../../../worker/domain/scraper/runner-hub";

it("probe", async () => {
  const hub = env.RUNNER_HUB!.getByName(`test-${crypto.randomUUID()}`);
  const open = async (name: string) => {
    const r = await hub.fetch("http://runner/", { headers: { Upgrade: "websocket" } });
    const s = r.webSocket!;
    s.accept();
    s.addEventListener("message", (e) => {
      console.log(name, "got", String(e.data).slice(0, 60));
      const call = JSON.parse(e.data as string);
      s.send(JSON.stringify({ id: call.id, status: 200, headers: {}, body: name }));
    });
    s.addEventListener("close", (e) => console.log(name, "closed", e.code, Date.now()));
    return s;
  };
  const a = await open("a");
  const b = await open("b");
  for (let i = 0; i < 10; i++) {
    const st = await runInDurableObject(hub, (_i: RunnerHub, state) => state.getWebSockets().map((w) => w.readyState));
    console.log(i, Date.now(), JSON.stringify(st));
    const res = await Promise.race([hub.fetch("http://runner/x").then((r) => r.text()), new Promise((r) => setTimeout(() => r("timeout"), 300))]);
    console.log("answer", res);
    await new Promise((r) => setTimeout(r, 100));
  }
  void a; void b;
});
