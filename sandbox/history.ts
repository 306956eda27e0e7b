import type { IncomingMessage, ServerResponse } from "node:http";
import { sendJson } from "./http-kit";

/**
 * How far each login's history at an institution has moved on since first shown: late postings, captures,
 * cancellations, corrections (each site says what a revision changes). Moved through
 * `POST <site>/sandbox/history?loginId=` (at the tax portal, the business number), so tests of incremental collection can change the past between two jobs and know the ground truth of both.
 */
export class LoginHistories {
  private readonly revisions = new Map<string, number>();

  revisionOf(loginId: string): number {
    return this.revisions.get(loginId) ?? 0;
  }

  /** Answers the control request with the login's new revision. */
  moveOn(req: IncomingMessage, res: ServerResponse, url: URL): void {
    if (req.method !== "POST") return sendJson(res, 405, { message: "POST only" });
    const loginId = url.searchParams.get("loginId") ?? "";
    if (!loginId) return sendJson(res, 400, { message: "loginId is required" });
    this.revisions.set(loginId, this.revisionOf(loginId) + 1);
    sendJson(res, 200, { loginId, revision: this.revisionOf(loginId) });
  }
}
