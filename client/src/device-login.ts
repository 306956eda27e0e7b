import createClient from "openapi-fetch";
import type { paths } from "./api";
import { CollectApiError } from "./errors";
import { type RetryPolicy, sleep, withRetries } from "./retry";

export interface DeviceCode {
  userCode: string;
  /** The console page where the user types the code. */
  verificationUri: string;
  /** The same page with the code filled in: open this. */
  verificationUriComplete: string;
  expiresInSeconds: number;
}

export interface DeviceLoginOptions {
  baseUrl: string;
  /** Shown on the console's approval page and as the new key's name. */
  clientName?: string;
  /** Where the client runs (`linux x64, Node 22.1.0`), shown on the approval page so the approver knows what asks. */
  platform?: string;
  /** Told the code to show the user before polling starts. */
  onCode: (code: DeviceCode) => void | Promise<void>;
  fetch?: typeof globalThis.fetch;
  signal?: AbortSignal;
  retry?: Omit<RetryPolicy, "signal">;
}

export interface DeviceLoginResult {
  apiKey: string;
  workspaceId: string;
  apiKeyId: string;
}

/**
 * Signs a command-line client in through the console (RFC 8628 device
 * grant): the user approves the code in a signed-in browser, and this
 * receives a new API key of the user's workspace. Polls no faster than the
 * service's interval, and slower when told slow_down.
 */
export async function deviceLogin(options: DeviceLoginOptions): Promise<DeviceLoginResult> {
  const baseUrl = options.baseUrl.replace(/\/+$/, "");
  const fetch = options.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => globalThis.fetch(input, init));
  const api = createClient<paths>({ baseUrl, fetch });
  const policy = { ...options.retry, signal: options.signal };
  const { data: started } = await withRetries(
    () => api.POST("/oauth/device_authorization", { body: { clientName: options.clientName ?? "collect CLI", ...(options.platform ? { platform: options.platform } : {}) }, signal: options.signal }),
    policy,
  );
  await options.onCode({
    userCode: started.user_code,
    verificationUri: started.verification_uri,
    verificationUriComplete: started.verification_uri_complete,
    expiresInSeconds: started.expires_in,
  });
  let intervalSeconds = started.interval;
  for (;;) {
    await sleep(intervalSeconds * 1000, options.signal);
    try {
      const { data } = await withRetries(() => api.POST("/oauth/device/token", { body: { device_code: started.device_code }, signal: options.signal }), policy);
      return { apiKey: data.access_token, workspaceId: data.workspaceId, apiKeyId: data.apiKey.id };
    } catch (err) {
      // RFC 8628 3.5: keep polling while pending, 5 s slower after slow_down; an expired or refused code ends the login.
      if (!(err instanceof CollectApiError) || (err.code !== "DEVICE_AUTHORIZATION_PENDING" && err.code !== "DEVICE_SLOW_DOWN")) throw err;
      if (err.code === "DEVICE_SLOW_DOWN") intervalSeconds += 5;
    }
  }
}
