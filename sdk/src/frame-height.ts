/**
 * The height a frame of the hosted page gets for the height the page reports (`collect:resize`): bounded to
 * 320..2000 px, so a page cannot make its frame vanish or cover a screen a hundred times over. It names nothing from
 * outside its body: the console's connect page, which frames the hosted page without loading the SDK's bundle, runs
 * this very function from its source text (worker/console/connect-credential.tsx).
 */
export function frameHeight(reported: number): string {
  return `${Math.min(2000, Math.max(320, Math.ceil(reported)))}px`;
}
