import { env, exports } from "cloudflare:workers";
import * as oauth from "oauth4webapi";
import { describe, expect, it } from "vitest";
import { sha256Hex } from "../../../../worker/platform/lib/crypto";
import { ConsoleBrowser } from "../../../support/workers/console-browser";
import { callJson } from "../../../support/workers/helpers";

/** Our service as a standard OAuth 2 client library (oauth4webapi) sees it: RFC 8414 metadata written by hand. */
const as: oauth.AuthorizationServer = {
  issuer: "https://api.test",
  device_authorization_endpoint: "https://api.test/oauth/device_authorization",
  token_endpoint: "https://api.test/oauth/device/token",
};
const client: oauth.Client = { client_id: "standard-cli" };
const options = { [oauth.customFetch]: (url: string, init: RequestInit) => exports.default.fetch(new Request(url, init)) };

const poll = async (deviceCode: string) => {
  const response = await oauth.deviceCodeGrantRequest(as, client, oauth.None(), deviceCode, options);
  return oauth.processDeviceCodeResponse(as, client, response);
};
const rfcError = (err: unknown) => (err instanceof oauth.ResponseBodyError ? { error: err.error, status: err.status } : err);

describe("the device grant driven by a standard client library (oauth4webapi, RFC 8628)", () => {
  it("runs the whole grant, approval included, form-encoded as the RFC sends it", async () => {
    const started = await oauth.processDeviceAuthorizationResponse(as, client, await oauth.deviceAuthorizationRequest(as, client, oauth.None(), new URLSearchParams(), options));
    expect(started).toMatchObject({ verification_uri: "https://api.test/console/device", expires_in: 600, interval: 5 });

    expect(await poll(started.device_code).catch(rfcError)).toEqual({ error: "authorization_pending", status: 400 });
    expect(await poll(started.device_code).catch(rfcError)).toEqual({ error: "slow_down", status: 400 });

    const browser = new ConsoleBrowser();
    const { workspaceId } = await browser.signUp();
    await browser.open(started.verification_uri_complete!.replace("https://api.test", ""));
    const approved = await browser.post("/console/device", { user_code: started.user_code, workspaceId, decision: "approve" });
    // The approval page names the client as its request did.
    expect(approved.html).toContain("standard-cli");

    await env.DB.prepare("UPDATE device_codes SET last_polled_at = last_polled_at - 60000 WHERE device_code_hash = ?").bind(await sha256Hex(started.device_code)).run();
    const token = await poll(started.device_code);
    expect(token.token_type).toBe("bearer");
    // RFC 6749 5.1: the key's lifetime, 90 days, in seconds.
    expect(token.expires_in).toBeGreaterThan(90 * 86_400 - 60);
    expect(token.expires_in).toBeLessThanOrEqual(90 * 86_400);
    expect((await callJson("/api/v1/schemas", { key: token.access_token })).status).toBe(200);
    expect(await poll(started.device_code).catch(rfcError)).toEqual({ error: "invalid_grant", status: 400 });
  });

  it("hears invalid_grant for a code nobody issued, and invalid_request for a request without one", async () => {
    expect(await poll("dc_made-up").catch(rfcError)).toEqual({ error: "invalid_grant", status: 400 });
    const bare = await exports.default.fetch(
      new Request(as.token_endpoint!, { method: "POST", headers: { "Content-Type": "application/x-www-form-urlencoded" }, body: new URLSearchParams({ grant_type: "urn:ietf:params:oauth:grant-type:device_code" }) }),
    );
    expect(bare.status).toBe(400);
    expect(await bare.json()).toMatchObject({ code: "MISSING_REQUIRED_PARAM", error: "invalid_request", fieldErrors: [{ field: "body.device_code" }] });
    const otherGrant = await exports.default.fetch(
      new Request(as.token_endpoint!, { method: "POST", headers: { "Content-Type": "application/x-www-form-urlencoded" }, body: new URLSearchParams({ grant_type: "password", device_code: "dc_x" }) }),
    );
    expect(await otherGrant.json()).toMatchObject({ code: "INVALID_PARAM_FORMAT", error: "unsupported_grant_type" });
  });
});
