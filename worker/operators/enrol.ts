import type { OperatorRole } from "../db/tables";
import { normalizeEmail } from "../users/email";
import { hashPassword } from "../users/password";
import { sealText } from "../vault/envelope";
import { newTotpSecret } from "./second-factor";
import type { OperatorRow } from "./store";

/** What the vault binds an operator's TOTP secret to: it opens for that operator's row and no other. */
export const totpBinding = (operatorId: string) => ["operator-totp", operatorId];

/**
 * A new operator's row and the TOTP secret to give them once, for their authenticator app (second-factor.ts totpUri):
 * made by `npm run operator:add` and the local stack's seed, never through an API, so no web request can mint one.
 */
export async function operatorRecord(masterKey: string, input: { email: string; password: string; role: OperatorRole }, now: number = Date.now()): Promise<{ row: OperatorRow; totpSecret: string }> {
  const id = crypto.randomUUID();
  const totpSecret = newTotpSecret();
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
