/**
 * What an isolate keeps between the requests it serves: at most `limit` entries, the oldest kept dropped first (a Map
 * iterates in insertion order), each deep-frozen, since every request that reads one shares it.
 */
export class IsolateMemory<V> {
  private readonly entries = new Map<string, V>();

  constructor(private readonly limit: number) {}

  get(key: string): V | undefined {
    return this.entries.get(key);
  }

  /** Keeps `value` under `key` as the newest entry, frozen, and returns it. */
  keep(key: string, value: V): V {
    this.entries.delete(key);
    this.entries.set(key, deepFreeze(value));
    if (this.entries.size > this.limit) this.entries.delete(this.entries.keys().next().value!);
    return value;
  }

  forget(key: string): void {
    this.entries.delete(key);
  }
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}
