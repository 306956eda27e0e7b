import { containerInstances } from "../durable-objects/scraper-container";
import type { Bindings } from "../env";
import { processInstances, type ScraperInstances } from "./scraper-instances";

/** Matches `max_instances` of the `[[containers]]` entry in wrangler.toml. */
const DEFAULT_CONTAINER_INSTANCES = 10;

/** The container binding when the environment has one, else the comma-separated SCRAPER_URL; null when neither is configured. */
export function scraperInstances(env: Partial<Pick<Bindings, "SCRAPER" | "SCRAPER_INSTANCES" | "SCRAPER_URL">>): ScraperInstances | null {
  if (env.SCRAPER) return containerInstances(env.SCRAPER, Number(env.SCRAPER_INSTANCES || DEFAULT_CONTAINER_INSTANCES));
  const urls = (env.SCRAPER_URL ?? "").split(",").map((url) => url.trim()).filter(Boolean);
  return urls.length > 0 ? processInstances(urls) : null;
}
