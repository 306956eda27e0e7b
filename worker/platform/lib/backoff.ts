/**
 * Exponential backoff with full jitter, so retries of many jobs after one
 * institution hiccup do not arrive together.
 */
export function backoffSeconds(attempt: number, baseSeconds: number, maxSeconds: number, random: () => number = Math.random): number {
  const ceiling = Math.min(maxSeconds, baseSeconds * 2 ** attempt);
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}
