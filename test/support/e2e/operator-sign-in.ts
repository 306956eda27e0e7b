import { Secret, TOTP } from "otpauth";
import type { Page } from "puppeteer-core";
import type { Claim } from "./global-setup";

/**
 * Signs in as the stack's one operator. Every file of the lane shares that operator, and a TOTP code opens one session,
 * so when another file signed in within the same 30 s step the code is refused: the next step's code is then a new one.
 */
export async function operatorSignIn(page: Page, stack: Claim): Promise<void> {
  const operator = stack.demoOperator;
  const totp = new TOTP({ secret: Secret.fromBase32(operator.totpSecret) });
  for (let attempt = 0; attempt < 2; attempt++) {
    if (attempt > 0) await new Promise((r) => setTimeout(r, (totp.period - ((Date.now() / 1000) % totp.period)) * 1000 + 200));
    await page.goto(`${stack.baseUrl}/admin/sign-in`);
    await page.type("#email", operator.email);
    await page.type("#password", operator.password);
    await page.type("#code", totp.generate());
    await Promise.all([page.waitForNavigation(), page.click("button[type=submit]")]);
    if (new URL(page.url()).pathname === "/admin") return;
  }
  throw new Error("the operator's sign-in was refused twice");
}
