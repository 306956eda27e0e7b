/**
 * Browser SDK of the data collection service: opens the hosted registration
 * UI for a one-time session token and reports the outcome. Credentials are
 * typed into the service's own page (in an iframe or popup), encrypted there,
 * and never pass through the partner's page or server.
 *
 * The token never goes into a URL: the hosted page asks for it with a
 * postMessage "hello", and the SDK answers only the window it opened, only
 * while that window shows the service's origin. The browser stamps the
 * answer with this page's origin, which the service checks against the
 * session's origin allowlist before the page shows any form.
 */

import { frameHeight } from "./frame-height";

export interface RegistrationSuccess {
  sessionId: string;
}

export interface RegistrationError {
  /** A service error code, e.g. REGISTRATION_SESSION_EXPIRED or REGISTRATION_SESSION_INVALID_ORIGIN, or POPUP_BLOCKED. */
  code: string;
}

export interface OpenRegistrationOptions {
  /** The `sessionToken` your backend got from POST /api/v1/registration-sessions. */
  sessionToken: string;
  /** The service's base URL, e.g. https://api.example.com. */
  serviceUrl: string;
  /** "iframe" (default): an overlay on this page; "popup": a separate window. */
  mode?: "iframe" | "popup";
  /** Where the iframe goes; a full-screen overlay when absent. */
  container?: HTMLElement;
  onSuccess?(result: RegistrationSuccess): void;
  onError?(error: RegistrationError): void;
  onClose?(): void;
}

export interface RegistrationHandle {
  /** Closes the UI without a result; onClose is called. */
  close(): void;
}

type UiMessage =
  | { type: "collect:hello"; nonce: string }
  | { type: "collect:resize"; height: number }
  | { type: "collect:success"; sessionId: string }
  | { type: "collect:error"; code: string }
  | { type: "collect:close" };

/** The SDK's answer to the hosted page's hello: the nonce it asked with, and the token. */
type TokenMessage = { type: "collect:token"; nonce: string; token: string };

function overlay(): HTMLElement {
  const backdrop = document.createElement("div");
  backdrop.setAttribute("role", "dialog");
  backdrop.setAttribute("aria-modal", "true");
  backdrop.setAttribute("aria-label", "기관 계정 연결");
  // The frame centres by its auto margins, not by align-items: one taller than the screen scrolls from its top.
  Object.assign(backdrop.style, { position: "fixed", inset: "0", background: "rgba(15,23,42,.55)", display: "flex", overflowY: "auto", zIndex: "2147483647" });
  document.body.append(backdrop);
  return backdrop;
}

/** Narrower than this, the overlay's frame takes the whole screen, as a phone's own pages do. */
const FULL_SCREEN_BELOW = 480;

export function openRegistration(options: OpenRegistrationOptions): RegistrationHandle {
  const serviceOrigin = new URL(options.serviceUrl).origin;
  const mode = options.mode ?? "iframe";
  const url = `${serviceOrigin}/connect`;
  let target: Window | null = null;
  let resize = (_height: number) => {};
  let cleanup = () => {};
  let finished = false;

  const finish = (after?: () => void) => {
    if (finished) return;
    finished = true;
    window.removeEventListener("message", onMessage);
    cleanup();
    after?.();
  };

  function onMessage(event: MessageEvent) {
    // Only the service's page we opened may speak; anything else is ignored.
    if (event.origin !== serviceOrigin || event.source !== target || !target) return;
    const message = event.data as UiMessage;
    if (message?.type === "collect:hello" && typeof message.nonce === "string") {
      // targetOrigin: should the window have navigated away from the service meanwhile, the browser drops the token.
      const reply: TokenMessage = { type: "collect:token", nonce: message.nonce, token: options.sessionToken };
      target.postMessage(reply, serviceOrigin);
    } else if (message?.type === "collect:resize" && Number.isFinite(message.height)) resize(message.height);
    else if (message?.type === "collect:success") finish(() => options.onSuccess?.({ sessionId: message.sessionId }));
    else if (message?.type === "collect:error") options.onError?.({ code: message.code });
    else if (message?.type === "collect:close") finish(() => options.onClose?.());
  }
  window.addEventListener("message", onMessage);

  if (mode === "popup") {
    target = window.open(url, "collect-registration", "width=480,height=640");
    if (!target) {
      finish(() => options.onError?.({ code: "POPUP_BLOCKED" }));
    } else {
      const popup = target;
      const watch = window.setInterval(() => {
        if (popup.closed) finish(() => options.onClose?.());
      }, 500);
      cleanup = () => {
        window.clearInterval(watch);
        if (!popup.closed) popup.close();
      };
    }
  } else {
    const host = options.container ?? overlay();
    const frame = document.createElement("iframe");
    frame.src = url;
    frame.title = "기관 계정 연결";
    frame.allow = "clipboard-write";
    // 560 px until the page reports its content's height, which it does once it knows who embeds it.
    Object.assign(frame.style, { width: "420px", maxWidth: "100%", height: "560px", border: "0", borderRadius: "12px", background: "#fff", margin: "auto", flexShrink: "0" });
    host.append(frame);
    target = frame.contentWindow;
    // The frame is as tall as the page's content, so 연결하기 is never below a fixed frame's fold.
    resize = (height) => (frame.style.height = frameHeight(height));
    // In the overlay, a narrow screen gets the frame edge to edge and at least as tall as the screen.
    const narrow = window.matchMedia(`(max-width: ${FULL_SCREEN_BELOW - 0.02}px)`);
    const fit = () => {
      const full = !options.container && narrow.matches;
      Object.assign(frame.style, { width: full ? "100%" : "420px", minHeight: full ? "100%" : "", borderRadius: full ? "0" : "12px" });
    };
    fit();
    narrow.addEventListener("change", fit);
    cleanup = () => {
      narrow.removeEventListener("change", fit);
      if (options.container) frame.remove();
      else host.remove();
    };
  }

  return { close: () => finish(() => options.onClose?.()) };
}
