import { type AdmittedKey, type KeyAdmission, keyGate, type RateDecision } from "./request-gate";
import { type Lease, type LeaseAsk, wantedFor } from "./lease";
import { numberOr } from "../../platform/configuration";

/** A lease this isolate spends: the key, the gate's answer and lease as they were granted, and what is left of it. */
interface Held {
  key: AdmittedKey;
  /** The gate's answer: its `remaining` is what the tighter window had left once the lease was counted. */
  decision: RateDecision;
  lease: Lease;
  /** Requests counted for this isolate and not yet spent: the rate header adds them to the gate's `remaining`. */
  left: number;
  takenAt: number;
  spent: number;
}

/** What a request learns from admit(): the admission, and the gate call it waited for (ms) or started without waiting. */
export interface LeasedAdmission {
  admission: KeyAdmission;
  gate: { waitedMs: number } | { refill: true } | null;
}

/** Keys an isolate keeps leases for; beyond it the oldest is dropped (its unspent requests go unused, counted). */
const MAX_HELD = 10_000;
/**
 * How long a request waits on another request's call to the gate before it asks itself: a call whose request was torn
 * down may never settle, and the key's requests in this isolate must not wait on it forever.
 */
const STALE_ASK_MS = 3_000;

type GateEnv = Pick<Env, "REQUEST_GATES" | "BENCH_GATE_DISTANCE_MS">;

/**
 * An isolate's leases of its API keys' gates (lease.ts): a request of a key this isolate holds a live lease for is
 * admitted here, without a round trip to the key's Durable Object, which may be a continent away. The gate is asked
 * when the lease runs out or expires (LEASE_MS), and once half of it is spent the next one is asked for in the
 * background, so a steady caller rarely waits. Requests that arrive while a lease is being asked for wait for it.
 * A key revoked or its workspace suspended through this isolate is dropped here at once, and everywhere else
 * within LEASE_MS; anything the gate refuses or does not resolve holds no lease, so every such request asks it.
 */
export class KeyLeases {
  private readonly held = new Map<string, Held>();
  private readonly asking = new Map<string, { call: Promise<KeyAdmission>; startedAt: number }>();

  /**
   * Admits one request of the key `hash`: from a live lease when there is one, from the gate otherwise.
   * `background` keeps an early refill alive past the request that started it (the request's waitUntil). `at` sets
   * the time for this isolate and the gate alike (tests); otherwise the gate keeps its windows by its own clock, so
   * isolates whose clocks differ by a few milliseconds never write one window's count into another's row.
   */
  async admit(env: GateEnv, hash: string, address: string, background: (work: Promise<unknown>) => void, at?: number): Promise<LeasedAdmission> {
    const now = at ?? Date.now();
    // Whether and how long this request waited for the gate (performance.now: Date may be held still in tests).
    let waitedMs: number | null = null;
    for (;;) {
      const spent = this.spend(hash, now);
      if (spent) return { admission: spent, gate: waitedMs !== null ? { waitedMs } : this.refillEarly(env, hash, address, background, now, at) };
      const started = performance.now();
      const pending = this.asking.get(hash);
      if (pending && started - pending.startedAt < STALE_ASK_MS) {
        await Promise.race([pending.call, scheduler.wait(STALE_ASK_MS - (started - pending.startedAt))]);
        waitedMs = (waitedMs ?? 0) + performance.now() - started;
        continue;
      }
      const admission = await this.ask(env, hash, address, now, at);
      waitedMs = (waitedMs ?? 0) + performance.now() - started;
      // Taken from the lease just counted, unless requests that waited on the same call spent it first.
      if (!("key" in admission) || admission.lease.granted === 0) return { admission, gate: { waitedMs } };
    }
  }

  /** Drops the lease of a key revoked, or whose workspace changed, through this isolate: its next request asks the gate. */
  forget(hash: string): void {
    this.held.delete(hash);
  }

  private spend(hash: string, now: number): KeyAdmission | null {
    const held = this.held.get(hash);
    if (!held || held.left === 0 || now >= held.lease.expiresAt) return null;
    held.left--;
    held.spent++;
    return { key: held.key, decision: { ...held.decision, remaining: held.decision.remaining + held.left }, lease: { ...held.lease, granted: 0 } };
  }

  /** Asks for the next lease once half of this one is spent, unless a call is under way. */
  private refillEarly(env: GateEnv, hash: string, address: string, background: (work: Promise<unknown>) => void, now: number, at: number | undefined): { refill: true } | null {
    const held = this.held.get(hash)!;
    if (this.asking.has(hash) || held.left > held.spent) return null;
    background(this.ask(env, hash, address, now, at).catch(() => undefined));
    return { refill: true };
  }

  /** One call to the key's gate at a time per key, whatever number of requests wait for it. */
  private ask(env: GateEnv, hash: string, address: string, now: number, at: number | undefined): Promise<KeyAdmission> {
    const held = this.held.get(hash);
    const live = held && now < held.lease.expiresAt;
    const ask: LeaseAsk = { wanted: wantedFor(held, now) };
    // What an expired lease did not spend goes back to its window; a live one's is kept and joined to the next.
    if (held && !live && held.left > 0) ask.unused = { windowStart: held.lease.windowStart, count: held.left };
    if (held && !live) this.held.delete(hash);
    const entry = {
      call: this.callGate(env, hash, address, at, ask)
        .then((admission) => {
          this.take(hash, admission, now);
          return admission;
        })
        .finally(() => {
          if (this.asking.get(hash) === entry) this.asking.delete(hash);
        }),
      startedAt: performance.now(),
    };
    this.asking.set(hash, entry);
    return entry.call;
  }

  private async callGate(env: GateEnv, hash: string, address: string, at: number | undefined, ask: LeaseAsk): Promise<KeyAdmission> {
    // A stand-in for a gate far away (bench/api.ts): the same wait on the way there and back. No deployment sets it.
    const distance = numberOr(env.BENCH_GATE_DISTANCE_MS, 0);
    const travel = () => (distance > 0 ? scheduler.wait(distance) : undefined);
    await travel();
    const admission = await keyGate(env, hash).admitKey(hash, address, at, ask);
    await travel();
    return admission;
  }

  private take(hash: string, admission: KeyAdmission, now: number): void {
    const held = this.held.get(hash);
    if (!("key" in admission)) {
      // Revoked, expired, suspended or unknown: nothing is spent for it here any more.
      if ("failure" in admission) this.forget(hash);
      return;
    }
    const { lease, decision } = admission;
    if (lease.granted === 0) return;
    const carried = held && held.lease.windowStart === lease.windowStart && now < held.lease.expiresAt ? held.left : 0;
    this.held.delete(hash);
    this.held.set(hash, { key: admission.key, decision, lease, left: carried + lease.granted, takenAt: now, spent: 0 });
    if (this.held.size > MAX_HELD) this.held.delete(this.held.keys().next().value!);
  }
}

/** This isolate's leases, module state so they outlive the request: the API's authentication and revocations share them. */
export const keyLeases = new KeyLeases();
