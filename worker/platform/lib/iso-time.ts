/** Stored epoch milliseconds as the API shows times: ISO 8601 UTC. */
export function isoTime(ms: number): string {
  return new Date(ms).toISOString();
}

export function isoTimeOrNull(ms: number | null): string | null {
  return ms === null ? null : isoTime(ms);
}
