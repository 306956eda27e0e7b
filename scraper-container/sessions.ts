import { randomUUID } from "node:crypto";
import type { HolderApproval, RawRecord, Target, TaskUnit } from "../contracts/task-unit";

/** A login at an institution, whatever kind of adapter made it (scraper-container/log-in.ts). */
export interface LoggedIn {
  /** A login its holder approves on a phone: what the app was asked (log-in.ts, approvedLogIn). */
  awaiting?: HolderApproval;
  /** How long the session may stay idle, where its institution keeps a login longer than the store's default. */
  idleMs?: number;
  /** Resolves once the login is made: at once, or (approvedLogIn) when its holder approved it; AwaitingHolder meanwhile. */
  ready(): Promise<void>;
  discoverTargets(schema: string): Promise<Target[]>;
  collect(unit: TaskUnit): Promise<RawRecord[]>;
  close(): Promise<void>;
}

export interface Session {
  id: string;
  loggedIn: LoggedIn;
  lastUsed: number;
  /** Units of one session run one after the other, as one browser page or one cookie jar would. */
  tail: Promise<unknown>;
}

/** Logged-in sessions by id, closed when idle. */
export class SessionStore {
  private readonly sessions = new Map<string, Session>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(private readonly idleMs: number) {
    this.sweeper = setInterval(() => void this.closeIdle(), Math.min(idleMs, 30_000));
    this.sweeper.unref();
  }

  get size(): number {
    return this.sessions.size;
  }

  add(fields: Omit<Session, "id" | "lastUsed" | "tail">): Session {
    const session: Session = { ...fields, id: randomUUID(), lastUsed: Date.now(), tail: Promise.resolve() };
    this.sessions.set(session.id, session);
    return session;
  }

  get(id: string): Session | undefined {
    return this.sessions.get(id);
  }

  /** Queues work behind the session's earlier units. */
  run<T>(session: Session, work: () => Promise<T>): Promise<T> {
    const result = session.tail.then(work, work);
    session.tail = result.catch(() => undefined);
    session.lastUsed = Date.now();
    return result.finally(() => {
      session.lastUsed = Date.now();
    });
  }

  async close(id: string): Promise<boolean> {
    const session = this.sessions.get(id);
    if (!session) return false;
    this.sessions.delete(id);
    await session.loggedIn.close().catch(() => undefined);
    return true;
  }

  async closeAll(): Promise<void> {
    clearInterval(this.sweeper);
    await Promise.all([...this.sessions.keys()].map((id) => this.close(id)));
  }

  private async closeIdle(): Promise<void> {
    const now = Date.now();
    for (const session of [...this.sessions.values()]) if (session.lastUsed < now - (session.loggedIn.idleMs ?? this.idleMs)) await this.close(session.id);
  }
}
