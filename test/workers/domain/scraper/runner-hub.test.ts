import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import type { RunnerRequest, RunnerResponse } from "../../../../contracts/scraper-protocol";
import { RUNNER_STATUS_PATH, type RunnerHub } from "../../../../worker/domain/scraper/runner-hub";

// The /runner routes' secret and slot checks are asserted in ../runner-slots.test.ts; here, one hub with runners.

/** A hub of the test's own: the deployment's slots (`runner-<n>`) are the runner-slots test's. */
const hubOfItsOwn = () => env.RUNNER_HUB!.getByName(`test-${crypto.randomUUID()}`);

/** What the hub holds: the runners' sockets it accepted and the calls waiting for their answers. */
const held = (hub: DurableObjectStub<RunnerHub>) =>
  runInDurableObject(hub, (instance: RunnerHub, state) => ({ sockets: state.getWebSockets().length, pending: instance["pending"].size }));

/**
 * A runner's end of the socket: the calls it was sent, in order, and its close. As a runner's WebSocket client does, it
 * answers the hub's close with its own, completing the handshake; with `holdClose`, only when `finishClose()` is called.
 */
async function connectRunner(hub: DurableObjectStub<RunnerHub>, options: { holdClose?: boolean } = {}) {
  const response = await hub.fetch("http://runner/", { headers: { Upgrade: "websocket" } });
  expect(response.status).toBe(101);
  const socket = response.webSocket!;
  socket.accept();
  const calls: RunnerRequest[] = [];
  socket.addEventListener("message", (event) => {
    calls.push(JSON.parse(event.data as string) as RunnerRequest);
  });
  const closed = new Promise<{ code: number }>((resolve) =>
    socket.addEventListener("close", (event) => {
      if (!options.holdClose) socket.close(1000);
      resolve({ code: event.code });
    }),
  );
  return {
    socket,
    closed,
    finishClose: () => socket.close(1000),
    /** The next `n` calls sent to this runner. */
    received: (n: number) => vi.waitUntil(() => (calls.length >= n ? calls.splice(0, n) : null), { timeout: 5_000, interval: 5 }),
    answer: (answer: RunnerResponse) => socket.send(JSON.stringify(answer)),
  };
}

const status = async (hub: DurableObjectStub<RunnerHub>) => {
  const response = await hub.fetch(`http://runner${RUNNER_STATUS_PATH}`);
  return { status: response.status, body: await response.json() };
};

describe("RunnerHub", () => {
  it("answers like an unreachable scraper with no runner, then carries each call over the runner's socket and matches answers by id", async () => {
    const hub = hubOfItsOwn();
    expect(await status(hub)).toEqual({ status: 503, body: { connected: false } });
    const unreachable = await hub.fetch("http://runner/sessions", { method: "POST", body: "{}" });
    expect(unreachable.status).toBe(503);
    expect(await unreachable.json()).toMatchObject({ failure: { code: "ENGINE_CRASHED" } });
    expect(await held(hub)).toEqual({ sockets: 0, pending: 0 });

    const runner = await connectRunner(hub);
    expect(await status(hub)).toEqual({ status: 200, body: { connected: true } });
    const posted = hub.fetch("http://runner/sessions/s-1/collect?unit=2", { method: "POST", headers: { "Content-Type": "application/json" }, body: '{"unit":2}' });
    const got = hub.fetch("http://runner/health");
    const calls = await runner.received(2);
    const postCall = calls.find((c) => c.method === "POST");
    const getCall = calls.find((c) => c.method === "GET");
    expect(postCall).toEqual({ id: expect.any(String), method: "POST", path: "/sessions/s-1/collect?unit=2", headers: expect.objectContaining({ "content-type": "application/json" }), body: '{"unit":2}' });
    expect(getCall).toMatchObject({ method: "GET", path: "/health", body: null });
    expect(postCall!.id).not.toBe(getCall!.id);
    expect(await held(hub)).toEqual({ sockets: 1, pending: 2 });

    // Answered out of order; what is not an answer, or answers no call, changes nothing.
    runner.answer({ id: getCall!.id, status: 200, headers: { "x-runner": "yes" }, body: "ok" });
    const gotResponse = await got;
    expect([gotResponse.status, gotResponse.headers.get("x-runner"), await gotResponse.text()]).toEqual([200, "yes", "ok"]);
    runner.socket.send("not json");
    runner.answer({ id: crypto.randomUUID(), status: 500, headers: {}, body: "" });
    expect(await held(hub)).toEqual({ sockets: 1, pending: 1 });
    runner.answer({ id: postCall!.id, status: 201, headers: { "content-type": "application/json" }, body: '{"collected":true}' });
    const postedResponse = await posted;
    expect(postedResponse.status).toBe(201);
    expect(await postedResponse.json()).toEqual({ collected: true });
    expect(await held(hub)).toEqual({ sockets: 1, pending: 0 });
    runner.socket.close(1000, "done");
  });

  it("lets a reconnecting runner replace the old socket, and fails the calls in flight when the runner goes", async () => {
    const hub = hubOfItsOwn();
    const first = await connectRunner(hub);
    const second = await connectRunner(hub);
    expect(await first.closed).toEqual({ code: 1012 });
    await vi.waitUntil(async () => (await held(hub)).sockets === 1, { timeout: 5_000, interval: 10 });

    // Calls now travel to the new runner only.
    const call = hub.fetch("http://runner/sessions", { method: "POST", body: "{}" });
    const [sent] = await second.received(1);
    second.answer({ id: sent!.id, status: 200, headers: {}, body: "second" });
    expect(await (await call).text()).toBe("second");

    const inFlight = hub.fetch("http://runner/sessions/s-2/collect", { method: "POST", body: "{}" });
    await second.received(1);
    expect(await held(hub)).toEqual({ sockets: 1, pending: 1 });
    second.socket.close(1001, "going away");
    const failed = await inFlight;
    expect([failed.status, await failed.text()]).toEqual([502, "runner disconnected"]);
    expect(await held(hub)).toEqual({ sockets: 0, pending: 0 });
    expect(await status(hub)).toEqual({ status: 503, body: { connected: false } });
  });

  // A replaced runner's close handshake may complete after the new runner was sent a call: only the calls sent over the
  // closed socket fail (this failed before the hub kept each call's socket).
  it("keeps a call sent to the new runner when the replaced runner's close completes later", async () => {
    const hub = hubOfItsOwn();
    const first = await connectRunner(hub, { holdClose: true });
    const second = await connectRunner(hub);
    await first.closed;
    const call = hub.fetch("http://runner/sessions", { method: "POST", body: "{}" });
    const [sent] = await second.received(1);
    first.finishClose();
    await vi.waitUntil(async () => (await held(hub)).sockets === 1, { timeout: 5_000, interval: 10 });
    second.answer({ id: sent!.id, status: 200, headers: {}, body: "second" });
    const answered = await call;
    expect([answered.status, await answered.text()]).toEqual([200, "second"]);
  });
});
