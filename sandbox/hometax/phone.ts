import { randomBytes } from "node:crypto";
import type { SimpleAuthPerson } from "./simple-auth-people";

/**
 * How the sandbox phone answers the gateway's requests, settable at start (`startSandbox({ hometax: { phone } })`)
 * and while running (`PUT /_sandbox/hometax/phone/settings`).
 */
export interface PhoneSettings {
  /** Approve a request by itself at its N-th `authen/result` poll (facts §11.5 DECISION); unset, only a tap approves. */
  approveAfterPolls?: number | null;
  /** How long a request stands, s: 5 minutes (K5, K9, K11); a test sets a few seconds, or 0 to have it lapse at once. */
  expirySeconds?: number;
  /** What `authen/result` answers a denial: no Hometax source shows it; the sibling product's 406 (K10) by default. */
  denial?: { resultCode: string; oacxCode: string };
}

export type RequestState = "pending" | "approved" | "denied";

/** One ring of the phone: a person asked by one app, and the gateway's handles of the request. */
export interface PhoneRequest {
  cxId: string;
  /** The token `authen/request` answered, the one the polls must carry (K1, K4). */
  token: string;
  txId: string;
  provider: string;
  providerName: string;
  person: SimpleAuthPerson;
  at: number;
  state: RequestState;
  polls: number;
}

const DEFAULTS = { expirySeconds: 300, denial: { resultCode: "406", oacxCode: "OACX_CANCLED_SIGNED" } };

/** Who a control call means: a request's cxId, or every standing request of a name or a phone. */
export interface PhoneMatch {
  cxId?: string;
  name?: string;
  phone?: string;
}

/** The sandbox's phone: what the gateway rang, and the person's taps (the demo page, or a test's control call). */
export class SandboxPhone {
  private readonly requests = new Map<string, PhoneRequest>();
  settings: Required<Pick<PhoneSettings, "expirySeconds" | "denial">> & Pick<PhoneSettings, "approveAfterPolls">;

  constructor(settings: PhoneSettings = {}) {
    this.settings = { ...DEFAULTS, ...settings };
  }

  configure(settings: PhoneSettings): void {
    this.settings = { ...this.settings, ...settings };
  }

  ring(fields: Omit<PhoneRequest, "cxId" | "at" | "state" | "polls">): PhoneRequest {
    const request: PhoneRequest = { ...fields, cxId: randomBytes(16).toString("hex"), at: Date.now(), state: "pending", polls: 0 };
    this.requests.set(request.cxId, request);
    // A phone keeps no history worth growing without bound: the oldest requests go.
    if (this.requests.size > 500) this.requests.delete(this.requests.keys().next().value!);
    return request;
  }

  get(cxId: string): PhoneRequest | undefined {
    return this.requests.get(cxId);
  }

  private windowMs(request: PhoneRequest): number {
    return (request.person.windowSeconds ?? this.settings.expirySeconds) * 1000;
  }

  lapsed(request: PhoneRequest, now = Date.now()): boolean {
    return now - request.at >= this.windowMs(request);
  }

  secondsLeft(request: PhoneRequest, now = Date.now()): number {
    return Math.max(0, Math.ceil((request.at + this.windowMs(request) - now) / 1000));
  }

  /** Requests still waiting for a tap, newest first. */
  standing(): PhoneRequest[] {
    return [...this.requests.values()].filter((r) => r.state === "pending" && !this.lapsed(r)).reverse();
  }

  /** Taps approve or deny on every standing request the match names; answers how many. */
  answer(match: PhoneMatch, state: Exclude<RequestState, "pending">): number {
    if (!match.cxId && !match.name && !match.phone) return 0;
    const chosen = this.standing().filter((r) => (!match.cxId || r.cxId === match.cxId) && (!match.name || r.person.name === match.name) && (!match.phone || r.person.phone === match.phone));
    for (const r of chosen) r.state = state;
    return chosen.length;
  }

  /** One `authen/result` poll counted; approves by itself when the setting says so. */
  polled(request: PhoneRequest): void {
    request.polls++;
    const after = this.settings.approveAfterPolls;
    if (request.state === "pending" && after && request.polls >= after) request.state = "approved";
  }
}
