import { userByLogin } from "./ground-truth";

/**
 * A person on the replica's consent page, by plain HTTP (no browser): open the authorization URL (already at its
 * stand-in), log in as a replica user, tick accounts (all of the user's when none are named) and agree or cancel.
 * Answers where the replica sends the browser back: the redirect_uri with `code` and `state`, or `error`.
 * For the demo seed (scripts/demo-openbanking.ts) and tests; the end-to-end test walks the same page in Chromium.
 */
export async function walkReplicaConsent(authorizationUrl: string, loginId: string, options: { fintechs?: string[]; action?: "agree" | "cancel" } = {}): Promise<URL> {
  const user = userByLogin(loginId);
  if (!user) throw new Error(`the Open Banking replica has no user ${loginId}`);
  const first = await fetch(authorizationUrl);
  const html = await first.text();
  const session = /name="session" value="([^"]+)"/.exec(html)?.[1];
  if (!session) throw new Error(`the replica's authorization page did not open (${first.status}): ${html.slice(0, 200)}`);
  const post = (path: string, form: URLSearchParams) =>
    fetch(new URL(path, authorizationUrl), { method: "POST", body: form, redirect: "manual", headers: { "Content-Type": "application/x-www-form-urlencoded" } });
  const login = await post("authorize_login", new URLSearchParams({ session, user_id: user.loginId, password: user.password, action: "login" }));
  if (!(await login.text()).includes('name="fintech_use_num"')) throw new Error(`the replica refused the login of ${loginId}`);
  const form = new URLSearchParams({ session, action: options.action ?? "agree" });
  for (const f of options.fintechs ?? user.accounts.map((a) => a.fintechUseNum)) form.append("fintech_use_num", f);
  const back = await post("authorize_consent", form);
  const location = back.headers.get("location");
  if (back.status !== 302 || !location) throw new Error(`the replica's consent did not redirect (${back.status})`);
  return new URL(location);
}
