import { readFileSync } from "node:fs";
import path from "node:path";

/** The shared profile's worker output (test/support/e2e/global-setup.ts). */
const WORKER_LOG = path.resolve(import.meta.dirname, "../../../test-artifacts/e2e/shared/worker.log");

/** The link in the last mail to `to`: the local stack sends none, it logs each mail (worker/domain/mail/outbox.ts). */
export async function mailedLink(to: string, kind: "invitation" | "verify-email" | "unlock" = "invitation"): Promise<string> {
  for (const deadline = Date.now() + 10_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 200))) {
    const mails = readFileSync(WORKER_LOG, "utf8").split("\n").filter((line) => line.includes('"mail-outbox"') && line.includes(`"to":"${to}"`));
    const link = new RegExp(`https?://[^\\s"\\\\]+/console/${kind}\\?token=[\\w-]+`).exec(mails.at(-1) ?? "")?.[0];
    if (link) return link;
  }
  throw new Error(`no mail to ${to} in ${WORKER_LOG}`);
}
