import { pgCodeOutcome } from "./portone";

/** A test card of the sandbox's PortOne replica, as its billing page lists it. */
export interface TestCard {
  number: string;
  registers: boolean;
  /** The catalog's code a charge (or, when it does not register, the registration) is refused with; null when paid. */
  refusedWith: string | null;
  pgMessage: string | null;
}

/** The list is a few lines: an answer longer than this is not the replica's. */
const MAX_ANSWER_BYTES = 16 * 1024;
const WAIT_MS = 2000;

/**
 * The sandbox replica's test cards, when this deployment's gateway is that replica (PORTONE_API_URL under
 * SANDBOX_BASE_URL, as the local stack and the tests set it), asked of the replica itself so the page lists exactly the
 * cards it answers to (sandbox/portone/gateway.ts, TEST_CARDS); null anywhere else (PortOne itself, in production), or
 * when the replica does not answer: the page then shows none.
 */
export async function replicaTestCards(env: Pick<Env, "PORTONE_API_URL" | "SANDBOX_BASE_URL">): Promise<TestCard[] | null> {
  const gateway = env.PORTONE_API_URL ? URL.parse(env.PORTONE_API_URL) : null;
  const sandbox = env.SANDBOX_BASE_URL ? URL.parse(env.SANDBOX_BASE_URL) : null;
  if (!gateway || !sandbox || gateway.origin !== sandbox.origin) return null;
  try {
    const answer = await fetch(`${gateway.href.replace(/\/$/, "")}/_sandbox/test-cards`, { signal: AbortSignal.timeout(WAIT_MS) });
    const text = answer.ok ? await answer.text() : "";
    if (text.length === 0 || text.length > MAX_ANSWER_BYTES) return null;
    const { items } = JSON.parse(text) as { items: { number: string; registers: boolean; pgCode: string | null; pgMessage: string | null }[] };
    return items.map((card) => ({ number: card.number, registers: card.registers, refusedWith: card.pgCode ? pgCodeOutcome(card.pgCode) : null, pgMessage: card.pgMessage }));
  } catch {
    return null;
  }
}
