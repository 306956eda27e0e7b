import path from "node:path";

/**
 * The environment that gives a `wrangler dev` session a dev registry of its own, under its state directory.
 *
 * By default every session on the machine registers in one registry (~/.config/.wrangler/registry), and a local queue
 * with no consumer of its own hands each message sent to it to whichever session registered a consumer of that queue's
 * name (miniflare's queue broker, "tryRemoteConsumer"). bench:api's credentialed stack leaves out its collect-tasks
 * consumer on purpose, so its thousands of plan messages went to the other stacks running then, on this machine
 * another engineer's: at stop 68 one bench:cost run counted 404 and 463 worker invocations for jobs that take 5, its
 * log 1,381 deliveries of collect-tasks messages for jobs its D1 does not hold. The stacks bind nothing of one another.
 */
export function ownDevRegistry(stateDir: string): { CLOUDFLARE_DEV_REGISTRY_PATH: string } {
  return { CLOUDFLARE_DEV_REGISTRY_PATH: path.join(stateDir, "dev-registry") };
}
