import { raw } from "hono/html";
import { allProviders } from "../domain/catalog/providers";
import { verifiedForm } from "../domain/console-sessions/csrf";
import { type ConsoleContext, consoleUserOf, workspaceRoleOf } from "./context";
import { issueSession, type RegistrationOption } from "../domain/registration/sessions";
import { workspaceBusinessNumber } from "../domain/workspaces/store";
import { findCredential } from "../domain/credentials/store";
import { Page } from "../web/layout";
import { WorkspaceNav } from "./workspace-nav";
import { frameHeight } from "../../sdk/src/frame-height";

/**
 * The console is a partner page like any other: it answers the hosted page's
 * handshake (docs/registration-sessions.md) with the session token, for the
 * frame it made, sizes the frame to the height the page reports as the SDK
 * does (the SDK's own function, from its source text), and goes back to the
 * list once the page reports an outcome. The password or certificate is typed
 * into the hosted page and never reaches the console.
 */
const ANSWER_HANDSHAKE_SCRIPT = `
const frameHeight = ${frameHeight.toString()};
const frame = document.getElementById("registration");
const origin = location.origin, done = frame.dataset.done;
addEventListener("message", (event) => {
  if (event.origin !== origin || event.source !== frame.contentWindow) return;
  const message = event.data || {};
  if (message.type === "collect:hello") frame.contentWindow.postMessage({ type: "collect:token", nonce: message.nonce, token: frame.dataset.token }, origin);
  else if (message.type === "collect:resize" && Number.isFinite(message.height)) frame.style.height = frameHeight(message.height);
  else if (message.type === "collect:success") location.assign(done + "?added=1");
  else if (message.type === "collect:close") location.assign(done);
  else if (message.type === "collect:error") document.getElementById("outcome").textContent = "등록할 수 없습니다 (" + message.code + "). 목록으로 돌아가 다시 시작해 주세요.";
});`;

/**
 * Every method the catalog takes: an ID login per provider that takes one, and a certificate (the end-user picks its
 * provider); or, to replace one credential, only its provider's ID login where that is what it is (`providerCode`).
 */
function registrationOptions(replacing: { providerCode: string; authMethod: string } | null): RegistrationOption[] {
  if (replacing?.authMethod === "PROVIDER_LOGIN") return [{ kind: "PROVIDER_LOGIN", providerCode: replacing.providerCode }];
  if (replacing) return [{ kind: "CERTIFICATE" }];
  const logins = allProviders()
    .filter((p) => p.acceptedAuthMethods.includes("PROVIDER_LOGIN"))
    .map((p): RegistrationOption => ({ kind: "PROVIDER_LOGIN", providerCode: p.code }));
  const certificates = allProviders().some((p) => p.acceptedAuthMethods.includes("CERTIFICATE")) ? [{ kind: "CERTIFICATE" } as const] : [];
  return [...logins, ...certificates];
}

/**
 * Opens the hosted registration page for a session of this workspace whose only allowed origin is the console's. With
 * `replace` (a credential's id), the page offers only that credential's method: registering the same account or
 * certificate again supersedes it (domain/credentials/replace.ts), which is how a changed password or a renewed certificate
 * replaces the old one.
 */
export async function connectCredential(c: ConsoleContext<"workspaceId">): Promise<Response> {
  const user = consoleUserOf(c);
  const fields = await verifiedForm(c, user.sessionToken);
  const workspaceId = c.req.valid("param").workspaceId;
  const replacing = fields.replace ? await findCredential(c.env.DB, workspaceId, fields.replace.slice(0, 64)) : null;
  const origin = new URL(c.req.url).origin;
  const { token } = await issueSession(c.env.DB, {
    workspaceId,
    businessNumber: await workspaceBusinessNumber(c.env.DB, workspaceId),
    options: registrationOptions(replacing),
    originAllowlist: [origin],
    clientReferenceId: `console:${user.userId}`,
  });
  return c.html(
    <Page title="기관 계정 연결" nav={<WorkspaceNav workspaceId={workspaceId} user={user} role={workspaceRoleOf(c)} />}>
      <p>아래 등록 화면은 서비스가 직접 보여 주는 화면입니다. 입력한 비밀번호와 인증서는 암호화되어 서비스로만 갑니다.</p>
      <p id="outcome" role="status"></p>
      <iframe
        id="registration"
        title="기관 계정 등록"
        src={`${origin}/connect`}
        data-token={token}
        data-done={`/console/w/${workspaceId}/credentials`}
        style="box-sizing:content-box;width:calc(100% - 2px);max-width:32rem;height:560px;border:1px solid #555;border-radius:4px"
      />
      <script nonce={c.get("cspNonce")}>{raw(ANSWER_HANDSHAKE_SCRIPT)}</script>
    </Page>,
    201,
  );
}
