import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { it } from "vitest";
import type { RunnerHub } from "../../../worker/domain/scraper/runner-hub";

it("probe", async () => {
  const hub = env.RUNNER_HUB!.getByName(`test-${crypto.randomUUID()}`);
  let replyClose: () => void = () => {};
  const open = async (name: string, answerAfter: number) => {
    const r = await hub.fetch("http://runner/", { headers: { Upgrade: "websocket" } });
    const s = r.webSocket!;
    s.accept();
    s.addEventListener("message", (e) => {
      console.log(name, "got", String(e.data).slice(0, 60));
      const call = JSON.parse(e.data as string);
      setTimeout(() => s.send(JSON.stringify({ id: call.id, status: 200, headers: {}, body: name })), answerAfter);
    });
    s.addEventListener("close", (e) => { console.log(name, "closed", e.code, Date.now()); replyClose = () => s.close(e.code, "bye"); });
    return s;
  };
  await open("a", 0);
  await open("b", 500);
  const pending = hub.fetch("http://runner/x").then((r) => r.status + " " + r.statusText);
  await new Promise((r) => setTimeout(r, 100));
  console.log("state", JSON.stringify(await runInDurableObject(hub, (i: RunnerHub, state) => [state.getWebSockets().map((w) => w.readyState), i["pending"].size])));
  replyClose();
  await new Promise((r) => setTimeout(r, 100));
  console.log("state after a's close reply", JSON.stringify(await runInDurableObject(hub, (i: RunnerHub, state) => [state.getWebSockets().map((w) => w.readyState), i["pending"].size])));
  console.log("call answered", await pending);
});
