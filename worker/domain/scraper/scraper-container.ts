import { Container } from "@cloudflare/containers";
import type { ScraperInstances } from "./instances";
import { leasedProcessTag } from "../../../collectors/openbanking/bank-tran-id";

/** The port `scraper-container/Dockerfile` makes the service listen on. */
export const SCRAPER_CONTAINER_PORT = 8080;

/**
 * The scraper service (`scraper-container/`) as a Cloudflare Container: one
 * Durable Object per instance, named `scraper-<n>` (containerInstances below), which keeps every call of a session on the
 * instance that logged in, since sessions live in that process's memory.
 */
export class ScraperContainer extends Container<Env> {
  override defaultPort = SCRAPER_CONTAINER_PORT;
  // Longer than the scraper's own idle close (SESSION_IDLE_MS, 5 min), so an instance sleeps only once its sessions are gone.
  override sleepAfter = "10m";
  // The institutions are on the internet.
  override enableInternet = true;

  constructor(ctx: Container["ctx"], env: Env) {
    super(ctx, env);
    const instance = instanceOf(ctx.id.name);
    // The container gets the worker's secrets from the worker's own; the service refuses to start without the shared one.
    this.envVars = {
      SCRAPER_SHARED_SECRET: env.SCRAPER_SHARED_SECRET,
      SANDBOX_BASE_URL: env.SANDBOX_BASE_URL,
      // This instance's own tag in Open Banking's bank_tran_ids: one process per instance, so no two live ones share it.
      ...(instance === null ? {} : { SCRAPER_PROCESS_TAG: String(leasedProcessTag("container", instance)) }),
      ...(env.EGRESS_PROXY_URL ? { EGRESS_PROXY_URL: env.EGRESS_PROXY_URL } : {}),
      ...(env.EGRESS_PROVIDERS ? { EGRESS_PROVIDERS: env.EGRESS_PROVIDERS } : {}),
      // The deployment's own key for nts.business-status: the scraper holds it, the worker never uses it.
      ...(env.NTS_SERVICE_KEY ? { NTS_SERVICE_KEY: env.NTS_SERVICE_KEY } : {}),
      // The 이용기관's Open Banking keys: the scraper exchanges and refreshes consents with them (docs/deploying.md).
      ...(env.OPENBANKING_CLIENT_ID ? { OPENBANKING_CLIENT_ID: env.OPENBANKING_CLIENT_ID } : {}),
      ...(env.OPENBANKING_CLIENT_SECRET ? { OPENBANKING_CLIENT_SECRET: env.OPENBANKING_CLIENT_SECRET } : {}),
      ...(env.OPENBANKING_CLIENT_USE_CODE ? { OPENBANKING_CLIENT_USE_CODE: env.OPENBANKING_CLIENT_USE_CODE } : {}),
      // The scraper's spans join the worker's at the same collector (docs/operations.md, "Logs and traces").
      ...(env.OTEL_EXPORTER_OTLP_ENDPOINT ? { OTEL_EXPORTER_OTLP_ENDPOINT: env.OTEL_EXPORTER_OTLP_ENDPOINT } : {}),
    };
  }
}

/** The instance's Durable Object name: stable, so a session's calls reach the container that holds it. */
export const containerInstanceName = (instance: number) => `scraper-${instance}`;

/** The instance a Durable Object name names, or null. */
function instanceOf(name: string | undefined): number | null {
  const match = /^scraper-(\d+)$/.exec(name ?? "");
  return match ? Number(match[1]) : null;
}

/** The scraper's instances in production: reached through the Durable Object binding, never a public address. */
export function containerInstances(namespace: DurableObjectNamespace<ScraperContainer>, count: number): ScraperInstances {
  return {
    count,
    // The host is a placeholder: the Container class forwards the request to the container's port.
    fetch: (instance, path, init) => namespace.getByName(containerInstanceName(instance)).fetch(`http://scraper${path}`, init),
  };
}
