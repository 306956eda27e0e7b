/**
 * The vault's master keyring as text: `v1:<base64url 32 bytes>,v2:<…>` (a bare key is v1). Envelope sealing uses the
 * newest version and opens with any (domain/vault/envelope.ts); these edit it for a rotation (scripts/vault-rotate.ts).
 */
export interface KeyringEntry {
  version: number;
  key: string;
}

export function keyringEntries(keyring: string): KeyringEntry[] {
  return keyring
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean)
    .map((entry) => {
      const match = /^v(\d+):(.+)$/.exec(entry);
      return match ? { version: Number(match[1]), key: match[2]! } : { version: 1, key: entry };
    });
}

/**
 * The keyring's versions, ascending ("1,2"): what a rotation's walk is of (domain/key-rotation/walks.ts). A version
 * names one key for good, so the same versions are the same keyring; putting a retired version back is another.
 */
export const keyringVersions = (keyring: string): string =>
  keyringEntries(keyring)
    .map((e) => e.version)
    .sort((a, b) => a - b)
    .join(",");

const text = (entries: KeyringEntry[]) => entries.map((e) => `v${e.version}:${e.key}`).join(",");

/** The keyring with a new newest version holding `key` (32 random bytes, base64url). */
export function withNewVersion(keyring: string, key: string): string {
  const entries = keyringEntries(keyring);
  return text([...entries, { version: Math.max(0, ...entries.map((e) => e.version)) + 1, key }]);
}

/** The keyring without the versions no sealed secret uses any more; the newest always stays. */
export function withoutUnused(keyring: string, inUse: ReadonlySet<number>): string {
  const entries = keyringEntries(keyring);
  const newest = Math.max(...entries.map((e) => e.version));
  return text(entries.filter((e) => e.version === newest || inUse.has(e.version)));
}

/**
 * What a keyring can do with a secret sealed under `version`: open it; not yet, because a deployment with a newer
 * keyring sealed it (a rollout under way: this worker learns the version with it); or never, its version having
 * left the keyring (retired too early, or a lost key).
 */
export function keyVersionState(keyring: string, version: number): "open" | "newer" | "missing" {
  const versions = keyringEntries(keyring).map((e) => e.version);
  if (versions.includes(version)) return "open";
  return version > Math.max(...versions) ? "newer" : "missing";
}
