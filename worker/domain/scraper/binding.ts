import { runnerInstances } from "./runner-hub";
import { containerInstances } from "./scraper-container";
import { processInstances, type ScraperInstances } from "./instances";
import { ContainerScraper } from "./container-client";
import { numberOr } from "../../platform/configuration";

/** Matches `max_instances` of the `[[containers]]` entry in wrangler.toml. */
const DEFAULT_CONTAINER_INSTANCES = 10;

/**
 * Runners when the deployment has runner slots, else the container binding when it has one, else the
 * comma-separated SCRAPER_URL; null when none is configured.
 */
export function scraperInstances(env: Partial<Pick<Env, "SCRAPER" | "SCRAPER_INSTANCES" | "SCRAPER_URL" | "RUNNER_HUB" | "SCRAPER_RUNNERS">>): ScraperInstances | null {
  if (env.RUNNER_HUB && numberOr(env.SCRAPER_RUNNERS, 0) > 0) return runnerInstances(env.RUNNER_HUB, numberOr(env.SCRAPER_RUNNERS, 0));
  if (env.SCRAPER) return containerInstances(env.SCRAPER, numberOr(env.SCRAPER_INSTANCES, DEFAULT_CONTAINER_INSTANCES));
  const urls = (env.SCRAPER_URL ?? "").split(",").map((url) => url.trim()).filter(Boolean);
  return urls.length > 0 ? processInstances(urls) : null;
}

/** A client of this deployment's scraper, as every caller speaks to it (the shared secret on each call); null when none is configured. */
export function scraperClient(env: Parameters<typeof scraperInstances>[0] & Pick<Env, "SCRAPER_SHARED_SECRET">): ContainerScraper | null {
  const instances = scraperInstances(env);
  return instances ? new ContainerScraper(instances, env.SCRAPER_SHARED_SECRET) : null;
}
