/**
 * What an isolate hands to a queue after its answers, gathered: the items of the next `gatherMs` go to `flush` together,
 * one call for all, where a send each cost the API a measurable share of its latency under load (docs/benchmarks.md,
 * "The request log", and stop 71 for the creates' plans); where they go as one message, as the log's entries do, the
 * bill falls too, since Queues bills by the message. The call that found no
 * gathering under way awaits the flush (its waitUntil lasts until it is sent); the others hand their item over and are
 * done, awaiting nothing of another request's. One outbox per queue binding (a test may hand the app a queue of its own).
 */
export function isolateOutbox<Q extends object, T>(gatherMs: number, flush: (queue: Q, items: T[]) => Promise<void>): (queue: Q, item: T) => Promise<void> {
  const boxes = new WeakMap<Q, { pending: T[]; gathering: boolean }>();
  return async (queue, item) => {
    let box = boxes.get(queue);
    if (!box) boxes.set(queue, (box = { pending: [], gathering: false }));
    box.pending.push(item);
    if (box.gathering) return;
    box.gathering = true;
    await new Promise((resolve) => setTimeout(resolve, gatherMs));
    box.gathering = false;
    await flush(queue, box.pending.splice(0));
  };
}
