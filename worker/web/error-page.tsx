import type { Context, Env, MiddlewareHandler } from "hono";
import type { Child } from "hono/jsx";
import type { ErrorEnvelope } from "../platform/errors/api-error";
import { catalogEntry } from "../platform/errors/codes";

/** Where an error page sends the person back to: a list of the surface, in its own words. */
export interface WayBack {
  href: string;
  text: string;
}

/** The statuses a page surface answers a person with a page for: a link that leads nowhere, a page they may not open. */
export type PageStatus = 403 | 404;

/** The surface's answer around the error's body: its own layout and menu, `body` as the content, `status` as the status. */
export type ErrorLayout<E extends Env> = (c: Context<E>, body: Child, title: string, status: PageStatus) => Response | Promise<Response>;

/**
 * What a surface says for one status. `back`: where to go from a path; none (a path the surface does not own, e.g.
 * the operators' API under /admin/api) leaves the envelope as it is. `why`: in the surface's terms, how a person came
 * to it, when the envelope's message does not say so already.
 */
export interface ErrorPage<E extends Env> {
  title: string;
  back: (c: Context<E>) => WayBack | undefined;
  why: (envelope: ErrorEnvelope) => string | undefined;
}

// The catalog's wording of an unknown path points an API caller at the API's reference: a person on a page gets its own.
const UNKNOWN_PATH = catalogEntry("RESOURCE_NOT_FOUND").message;

/** A script polling a page surface for JSON (a job's live progress) asks for JSON and keeps getting the envelope. */
const asksForJson = (accept: string | undefined) => !!accept && accept.includes("application/json") && !accept.includes("text/html");

/**
 * The body of a page surface's error: what happened (the envelope's Korean message, its code kept in `data-code`),
 * how it can come about, the way back to the list, and the request id support asks for.
 */
export const ErrorBody = (props: { envelope: ErrorEnvelope; back: WayBack; why: string | undefined; status: PageStatus }) => (
  <>
    <p id={props.status === 404 ? "not-found" : "refused"} data-code={props.envelope.code}>
      {props.envelope.message === UNKNOWN_PATH ? "이 주소에는 페이지가 없습니다." : props.envelope.message}
    </p>
    {props.why && <p>{props.why}</p>}
    <p>
      <a href={props.back.href}>{props.back.text}</a>
    </p>
    <p class="next-step">
      문의할 때 알려 줄 요청 ID: <code>{props.envelope.requestId}</code>
    </p>
  </>
);

/**
 * The one rule of the page surfaces (the console, the operators' pages): a refusal a person meets by following a
 * link, a path no page has or a row that is not there (404), or a page they may not open (403), is answered with a
 * page in the surface's layout instead of the JSON envelope, whichever handler refused it. It rewrites the envelope
 * after the fact, so every refusal, thrown or returned, is covered, and every other status keeps its answer; so does
 * a request that asks only for JSON.
 */
export const errorsAsPages =
  <E extends Env>(layout: ErrorLayout<E>, pages: Partial<Record<PageStatus, ErrorPage<E>>>): MiddlewareHandler<E> =>
  async (c, next) => {
    await next();
    const status = c.res.status as PageStatus;
    const page = pages[status];
    if (!page || !c.res.headers.get("Content-Type")?.startsWith("application/json") || asksForJson(c.req.header("Accept"))) return;
    const way = page.back(c);
    if (!way) return;
    const envelope = (await c.res.clone().json()) as ErrorEnvelope;
    // Hono's setter keeps what the envelope's answer carried besides its type (a session's cookie).
    c.res = await layout(c, <ErrorBody envelope={envelope} back={way} why={page.why(envelope)} status={status} />, page.title, status);
  };
