// Apart from platform/lib/crypto.ts because crypto.subtle.timingSafeEqual is the Workers runtime's own: scripts that run
// under Node (the demo seed) import platform/lib/crypto.ts and must not type-check against it.
const encoder = new TextEncoder();

/** Compares two equal-purpose secrets without leaking where they differ. */
export function timingSafeEqualHex(a: string, b: string): boolean {
  const left = encoder.encode(a);
  const right = encoder.encode(b);
  if (left.byteLength !== right.byteLength) return false;
  return crypto.subtle.timingSafeEqual(left, right);
}
