import type { OperatorRole, operators } from "./tables";
import { normalizeEmail } from "../users/email";
import { hashPassword } from "../users/password";
import { sealText } from "../vault/envelope";
import { newTotpSecret } from "./second-factor";

/** What the vault binds an operator's TOTP secret to: it opens for that operator's row and no other. */
export const totpBinding = (operatorId: string) => ["operator-totp", operatorId];

/**
 * A new operator's row and the TOTP secret to give them once, for their authenticator app (second-factor.ts totpUri):
 * made by `npm run operator:add` and the local stack's seed, never through an API, so no web request can mint one.
 */
export async function operatorRecord(
  masterKey: string,
  input: { email: string; password: string; role: OperatorRole; totpSecret?: string },
  now: number = Date.now(),
): Promise<{ row: typeof operators.$inferSelect; totpSecret: string }> {
  const id = crypto.randomUUID();
  // The local stack keeps its demo operator's secret across restarts, so the authenticator app enrolled once keeps working.
  const totpSecret = input.totpSecret ?? newTotpSecret();
  return {
    row: {
      id,
      email: normalizeEmail(input.email),
      passwordHash: await hashPassword(input.password),
      role: input.role,
      totpSealed: await sealText(masterKey, totpBinding(id), totpSecret),
      totpLastStep: 0,
      disabledAt: null,
      createdAt: now,
    },
    totpSecret,
  };
}
