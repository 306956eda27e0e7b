import { readFileSync } from "node:fs";
import path from "node:path";

/**
 * The instance type production's scraper container runs on (wrangler.toml, `[[env.production.containers]]`), with
 * its size from developers.cloudflare.com/containers/platform/limits. bench:sessions sizes its sessions against it and
 * bench:cost prices its memory and disk; checked against wrangler.toml, so both follow a change of type or fail.
 */
export const CONTAINER_INSTANCE = { type: "standard-3", vcpu: 2, memoryGib: 8, diskGb: 16 };

const configured = /\[\[env\.production\.containers\]\]\n(?:[^\n]+\n)*?instance_type = "([^"]+)"/.exec(
  readFileSync(path.join(import.meta.dirname, "../wrangler.toml"), "utf8"),
)?.[1];
if (configured !== CONTAINER_INSTANCE.type) {
  throw new Error(`bench/container-instance.ts describes ${CONTAINER_INSTANCE.type}, wrangler.toml runs ${configured}`);
}
