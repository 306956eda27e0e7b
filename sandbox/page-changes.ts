import type { IncomingMessage, ServerResponse } from "node:http";
import { readJson, sendJson } from "./http-kit";

/**
 * Redesigns a site can go through, per login (so tests sharing a sandbox keep apart), as real institutions change
 * their pages without notice: the scraper's failure reports (docs/operations.md) are tested against them.
 * `PUT <site>/sandbox/page-changes?loginId=` with `{"change": "<name>"}` turns one on, `DELETE` turns them all off,
 * `GET` lists them. Each site says what its changes are.
 */
export class PageChanges<Change extends string> {
  private readonly changes = new Map<string, Set<Change>>();

  constructor(private readonly known: readonly Change[]) {}

  has(loginId: string, change: Change): boolean {
    return this.changes.get(loginId)?.has(change) ?? false;
  }

  async answer(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const loginId = url.searchParams.get("loginId") ?? "";
    if (!loginId) return sendJson(res, 400, { message: "loginId is required" });
    if (req.method === "PUT") {
      const change = String((await readJson(req)).change ?? "") as Change;
      if (!this.known.includes(change)) return sendJson(res, 400, { message: `change is one of ${this.known.join(", ")}` });
      this.changes.set(loginId, new Set([...(this.changes.get(loginId) ?? []), change]));
    } else if (req.method === "DELETE") this.changes.delete(loginId);
    sendJson(res, 200, { loginId, changes: [...(this.changes.get(loginId) ?? [])] });
  }
}
