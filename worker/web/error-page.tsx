import type { Context, Env, MiddlewareHandler } from "hono";
import type { Child } from "hono/jsx";
import type { ErrorEnvelope } from "../platform/errors/api-error";
import { catalogEntry } from "../platform/errors/codes";

/** Where a not-found page sends the person back to: a list of the surface, in its own words. */
export interface WayBack {
  href: string;
  text: string;
}

/** The surface's answer around the not-found's body: its own layout and menu, `body` as the content, status 404. */
export type NotFoundLayout<E extends Env> = (c: Context<E>, body: Child, title: string) => Response | Promise<Response>;

const TITLE = "찾을 수 없습니다";
// The catalog's wording of an unknown path points an API caller at the API's reference: a person on a page gets its own.
const UNKNOWN_PATH = catalogEntry("RESOURCE_NOT_FOUND").message;

/** A script polling a page surface for JSON (a job's live progress) asks for JSON and keeps getting the envelope. */
const asksForJson = (accept: string | undefined) => !!accept && accept.includes("application/json") && !accept.includes("text/html");

/**
 * The body of a page surface's not-found: what is not there (the envelope's Korean message, its code kept in
 * `data-code`), how a link can lead nowhere, the way back to the list, and the request id support asks for.
 */
export const NotFoundBody = (props: { envelope: ErrorEnvelope; back: WayBack; why: string }) => (
  <>
    <p id="not-found" data-code={props.envelope.code}>
      {props.envelope.message === UNKNOWN_PATH ? "이 주소에는 페이지가 없습니다." : props.envelope.message}
    </p>
    <p>{props.why}</p>
    <p>
      <a href={props.back.href}>{props.back.text}</a>
    </p>
    <p class="next-step">
      문의할 때 알려 줄 요청 ID: <code>{props.envelope.requestId}</code>
    </p>
  </>
);

/**
 * The one rule of the page surfaces (the console, the operators' pages): a stale link, to a path no page has or a row
 * that is not there (or not of this workspace), is answered 404 with a page in the surface's layout instead of the
 * JSON envelope, whichever handler refused it. It rewrites the envelope after the fact, so every refusal, thrown or
 * returned, is covered, and every other status keeps its answer. `back` says where to go from a path; none (a path the
 * surface does not own, e.g. the operators' API under /admin/api) leaves the envelope as it is; `why` says, in the
 * surface's terms, how a link can lead nowhere.
 */
export const notFoundAsPage =
  <E extends Env>(back: (c: Context<E>) => WayBack | undefined, layout: NotFoundLayout<E>, why: string): MiddlewareHandler<E> =>
  async (c, next) => {
    await next();
    if (c.res.status !== 404 || !c.res.headers.get("Content-Type")?.startsWith("application/json") || asksForJson(c.req.header("Accept"))) return;
    const way = back(c);
    if (!way) return;
    const envelope = (await c.res.clone().json()) as ErrorEnvelope;
    // Hono's setter keeps what the envelope's answer carried besides its type (a session's cookie).
    c.res = await layout(c, <NotFoundBody envelope={envelope} back={way} why={why} />, TITLE);
  };
