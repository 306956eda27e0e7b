import type { Context } from "hono";
import { csrfToken, verifiedForm } from "../domain/console-sessions/csrf";
import type { ConsoleUser, ConsoleEnv } from "./context";
import { ApiError } from "../platform/errors/api-error";
import { acceptInvitation, invalidInvitation, type InvitationRow, pendingInvitation, signUpAndAccept } from "../domain/users/invitations";
import { AS_ROLE, INVITATION_PAGE } from "../domain/users/send-invitation";
import { findUserByEmail } from "../domain/users/store";
import { workspaceNames } from "../domain/workspaces/store";
import { assertBounded, FORM_FIELD_BOUNDS } from "../web/form-bounds";
import { CsrfField, ErrorAlert, Page } from "../web/layout";
import { currentUser, SIGN_IN_PATH } from "./signed-in";
import { MIN_PASSWORD_LENGTH, shortPassword } from "./sign-up";
import { startSession } from "./start-session";

/** A token as a link carries it: longer is no token of ours. */
const tokenOf = (value: string | undefined) => (value ?? "").slice(0, 100);

/**
 * The page an invitation's link opens. Signed in with the invited address: a button that accepts. Signed in as
 * someone else: whom the invitation is for. Signed out: sign in to accept, or, for an address without an account,
 * choose a password and join at once. Accepting is a POST, never the GET, so mail scanners cannot spend the link.
 */
async function invitationPage(c: Context<ConsoleEnv>, token: string, error?: ApiError): Promise<Response> {
  const user = await currentUser(c);
  const invitation = await pendingInvitation(c.env.DB, token);
  const csrf = user?.csrf ?? (await csrfToken(c, null));
  const shownError = error ?? (invitation ? undefined : invalidInvitation());
  return c.html(
    <Page title="워크스페이스 초대">
      <ErrorAlert error={shownError} />
      {invitation && (await invitationBody(c, invitation, token, user, csrf))}
    </Page>,
    (shownError?.status ?? 200) as 200,
  );
}

/** What the invited person can do from where they are (signed in as them, as someone else, or signed out). */
async function invitationBody(c: Context<ConsoleEnv>, invitation: InvitationRow, token: string, user: ConsoleUser | null, csrf: string) {
  const workspace = (await workspaceNames(c.env.DB, [invitation.workspaceId])).get(invitation.workspaceId) ?? "";
  const here = `${INVITATION_PAGE}?token=${token}`;
  const intro = (
    <p>
      <strong>{workspace}</strong> 워크스페이스에 {AS_ROLE[invitation.role]} 초대되었습니다 ({invitation.email}).
    </p>
  );
  if (user && user.email !== invitation.email) {
    return (
      <>
        {intro}
        <p>
          지금 {user.email}(으)로 로그인되어 있습니다. 이 초대는 {invitation.email} 계정으로만 수락할 수 있습니다. 로그아웃한 뒤 이 링크를 다시 열어 주세요.
        </p>
      </>
    );
  }
  if (user) {
    return (
      <form method="post" action={INVITATION_PAGE}>
        {intro}
        <CsrfField token={csrf} />
        <input type="hidden" name="token" value={token} />
        <button type="submit">초대 수락</button>
      </form>
    );
  }
  if (await findUserByEmail(c.env.DB, invitation.email)) {
    return (
      <>
        {intro}
        <p>
          <a href={`${SIGN_IN_PATH}?next=${encodeURIComponent(here)}`}>{invitation.email}(으)로 로그인</a>한 뒤 수락해 주세요.
        </p>
      </>
    );
  }
  return (
    <form method="post" action={INVITATION_PAGE}>
      {intro}
      <p>이 주소의 계정이 없습니다. 비밀번호를 정하면 계정을 만들고 바로 참여합니다.</p>
      <CsrfField token={csrf} />
      <input type="hidden" name="token" value={token} />
      <input type="email" name="email" value={invitation.email} autocomplete="username" readonly hidden />
      <label for="password">비밀번호 ({MIN_PASSWORD_LENGTH}자 이상)</label>
      <input id="password" name="password" type="password" autocomplete="new-password" minlength={MIN_PASSWORD_LENGTH} maxlength={FORM_FIELD_BOUNDS.password.max} required />
      <button type="submit">계정 만들고 참여</button>
    </form>
  );
}

export const showInvitation = (c: Context<ConsoleEnv>) => invitationPage(c, tokenOf(c.req.query("token")));

export async function submitInvitation(c: Context<ConsoleEnv>): Promise<Response> {
  const user = await currentUser(c);
  const fields = await verifiedForm(c, user?.sessionToken ?? null);
  const token = tokenOf(fields.token);
  try {
    if (user) {
      const { workspaceId } = await acceptInvitation(c.env.DB, token, { id: user.userId, email: user.email });
      return c.redirect(`/console/w/${workspaceId}/jobs`, 303);
    }
    assertBounded(fields, ["password"]);
    const password = fields.password ?? "";
    const short = shortPassword(password);
    if (short) throw short;
    const joined = await signUpAndAccept(c.env.DB, token, password);
    return await startSession(c, joined.userId, `/console/w/${joined.workspaceId}/jobs`);
  } catch (err) {
    if (err instanceof ApiError && err.status < 500) return invitationPage(c, token, err);
    throw err;
  }
}
