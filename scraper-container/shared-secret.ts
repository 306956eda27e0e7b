import { createHash, timingSafeEqual } from "node:crypto";
import { MIN_SHARED_SECRET_LENGTH, scraperAuthorization } from "../contracts/scraper-protocol";

export function checkSharedSecret(secret: string | undefined): string {
  if (!secret || secret.length < MIN_SHARED_SECRET_LENGTH) throw new Error(`SCRAPER_SHARED_SECRET must be set to at least ${MIN_SHARED_SECRET_LENGTH} characters`);
  return secret;
}

const digest = (value: string) => createHash("sha256").update(value).digest();

/** Whether an Authorization header carries the shared secret; digests make the comparison equal-length and constant-time. */
export function isAuthorized(header: string | undefined, secret: string): boolean {
  return timingSafeEqual(digest(header ?? ""), digest(scraperAuthorization(secret)));
}
