import type { DateSegment } from "../../collectors/adapter";
import { kstDate } from "../../contracts/korean-time";
import { approvalsOf, viewDay } from "./approvals";
import { cardsOf } from "./cards";

/**
 * What the sandbox card issuer holds for a login, in exactly the record
 * shapes the service returns (`card.cards.corp.v1`, `card.approvals.corp.v1`),
 * so tests can compare collected records with it field for field. Approvals
 * run card by card, oldest first; `revision` is the login's history after that
 * many moves (POST /card/sandbox/history), from the issuer's view on `today`.
 */
export function cardGroundTruth(loginId: string, range?: DateSegment, revision = 0, today = kstDate()) {
  const cards = cardsOf(loginId);
  return {
    cards: cards.map((c) => ({ schema: "card.cards.corp.v1" as const, cardName: c.cardName, cardNumberMasked: c.cardNumberMasked })),
    approvals: cards.flatMap((c) => approvalsOf(c, range, viewDay(revision, today)).map((line) => ({ schema: "card.approvals.corp.v1" as const, ...line }))),
  };
}
