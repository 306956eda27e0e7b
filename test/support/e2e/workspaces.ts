import type { WorkspaceSeed } from "../../../scripts/demo-seed";

export type WorkspaceSpec = Pick<WorkspaceSeed, "login" | "user">;

/**
 * The sandbox bank's error codes bank-errors.test.ts takes through the whole stack: one of each way the service
 * meets a failure (a refused login, a notice at login, maintenance, a session lost after login, a page that never
 * answers, text no rule knows). Every code's recognition is tested in Chromium (collectors/sandbox-bank/sandbox-bank.test.ts)
 * and its envelope comes from the one catalog; LOGIN_TRANSIENT goes through the stack in client.test.ts.
 */
export const BANK_ERRORS_END_TO_END = ["LOGIN_FAILED", "LOGIN_LOCKED", "PROVIDER_TIME_WINDOW", "SESSION_EXPIRED", "TIMEOUT", "UNKNOWN"] as const;

export const GOOD_LOGIN = { loginId: "user_good", password: "pass_good" };
// The sandbox bank refuses this password as a wrong login (LOGIN_FAILED, category CREDENTIAL).
export const REFUSED_LOGIN = { loginId: "user_good", password: "error_LOGIN_FAILED" };

/**
 * Every workspace an end-to-end file uses besides the one it claims, by name, each used by one test only, so a
 * test counts only its own jobs. The global setup seeds them all with the shared stack, before its worker starts:
 * wrangler's local D1 is one SQLite file, and a second process writing it while the worker runs fails the worker's
 * own writes with SQLITE_BUSY (a delivery died that way, and its job never ended).
 */
export const NAMED_WORKSPACES = {
  // Bank logins the end-user registers through the UI, in an iframe and in a popup.
  "registration/iframe": {},
  "registration/popup": {},
  // A 간편인증 login to Hometax registered through the partner example's page and approved on the sandbox phone.
  "hometax/simple-auth": {},
  // Its jobs fail LOGIN_FAILED; its console user signs in to see them.
  "console/login-failed": { user: { email: "failing@collect-edge.co.kr", password: "wrong-bank-password-1" }, login: REFUSED_LOGIN },
  "cli/refused": { login: REFUSED_LOGIN },
  "cli/jobs": { login: GOOD_LOGIN },
  "cli/webhooks": { login: GOOD_LOGIN },
  "client/lossy-hop": { login: GOOD_LOGIN },
  // The sandbox bank answers this login with a passing fault every time: the service resumes it, then fails it as TRANSIENT.
  "client/transient": { login: { loginId: "user_good", password: "error_LOGIN_TRANSIENT" } },
  "client/browser": { login: GOOD_LOGIN },
  "scheduled-load": { login: GOOD_LOGIN },
  // The Java and Python clients' programs (partner-clients.test.ts): a good login each, and one the bank refuses.
  "clients/java": { login: GOOD_LOGIN },
  "clients/java-refused": { login: REFUSED_LOGIN },
  "clients/python": { login: GOOD_LOGIN },
  "clients/python-refused": { login: REFUSED_LOGIN },
  // The faults file's every-minute schedule, on a credential of its own so its runs never wait on the file's jobs' lock.
  "faults/schedule": { login: GOOD_LOGIN },
  ...Object.fromEntries(BANK_ERRORS_END_TO_END.map((code) => [`bank-errors/${code}`, { login: { loginId: "user_good", password: `error_${code}` } }])),
} satisfies Record<string, WorkspaceSpec>;

export type WorkspaceName = keyof typeof NAMED_WORKSPACES | `bank-errors/${string}`;
