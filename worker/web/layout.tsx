import type { FormOutcome } from "./form-outcome";
import type { Child } from "hono/jsx";
import { raw } from "hono/html";
import { CSRF_FIELD } from "../domain/console-sessions/csrf";
import type { ApiError } from "../platform/errors/api-error";

// High-contrast colours (WCAG AA on white), one column that fits a phone, visible keyboard focus. Table cells keep
// Korean words whole (keep-all): by default a syllable may end a line, so a table wider than a phone was squeezed to
// one character a line ("정/상") instead of scrolling in its box. Outside tables, a long id or code (a heading's
// request id, a JSON body) wraps anywhere rather than push the page wider than a phone.
const STYLE = `
*{box-sizing:border-box}body{margin:0;font-family:system-ui,-apple-system,"Apple SD Gothic Neo","Noto Sans KR",sans-serif;color:#111;background:#fff;line-height:1.5}
header{display:flex;flex-wrap:wrap;gap:.5rem 1rem;align-items:center;padding:.75rem 1rem;background:#0b3d91;color:#fff}
header a{color:#fff}nav{display:flex;flex-wrap:wrap;gap:.75rem}main{max-width:56rem;margin:0 auto;padding:1rem}
label{display:block;font-weight:600;margin-top:.75rem;overflow-wrap:anywhere}input,select,textarea{font:inherit;width:100%;max-width:28rem;padding:.5rem;border:1px solid #555;border-radius:4px}textarea{display:block;min-height:6rem}
button{font:inherit;margin-top:.75rem;padding:.5rem 1rem;border:0;border-radius:4px;background:#0b3d91;color:#fff;cursor:pointer}
button.danger{background:#a4161a}:focus-visible{outline:3px solid #f4a300;outline-offset:2px}
.alert{padding:.75rem;border:2px solid #a4161a;background:#fdecec;color:#5c0b0d;border-radius:4px}
.notice{padding:.75rem;border:2px solid #1b5e20;background:#eaf6ea;border-radius:4px;word-break:break-all}
table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:.4rem;border-bottom:1px solid #ccc;vertical-align:top;word-break:keep-all;overflow-wrap:normal}
td code{word-break:keep-all}pre{white-space:pre-wrap;overflow-wrap:anywhere}dd{margin-left:1rem;overflow-wrap:anywhere}h1,h2,h3{overflow-wrap:anywhere}
.menu{flex:1 1 auto}.menu-bar{width:100%}.menu ul{list-style:none;margin:0;padding:0}.menu summary{cursor:pointer;font-weight:600}.menu a{text-decoration:none}.menu a:hover{text-decoration:underline}
.menu-toggle{display:inline-block;padding:.25rem .75rem;border:1px solid #fff;border-radius:4px}.menu-bar{display:flex;flex-direction:column;padding-top:.5rem}
.menu-bar a,.menu-group summary{display:block;padding:.4rem 0}.menu-group ul{padding-left:1rem}.menu-group button{margin:.25rem 0;background:#fff;color:#0b3d91}
@media (min-width:48rem){@supports selector(::details-content){.menu-toggle{display:none}.menu-all::details-content{content-visibility:visible}
.menu-bar{flex-direction:row;align-items:center;gap:1.25rem;padding:0}.menu-account{margin-left:auto}.menu-group details{position:relative}
.menu-group ul{position:absolute;top:100%;left:0;z-index:10;min-width:12rem;padding:.5rem 1rem;background:#fff;border:1px solid #999;border-radius:4px;box-shadow:0 4px 12px rgba(0,0,0,.2)}
.menu-account ul{left:auto;right:0}.menu-group ul a{color:#0b3d91}.menu-group button{background:#0b3d91;color:#fff}}}
.timeline{padding-left:1.25rem}.timeline time{margin-right:.5rem;color:#333;font-variant-numeric:tabular-nums}.next-step{display:block;color:#333}
.row-actions{display:flex;flex-wrap:wrap;gap:.5rem}.row-actions form{margin:0}.row-actions button{margin:0;white-space:nowrap}
@media (max-width:47.99rem){.stacked thead{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)}.stacked tr{display:block;padding:.5rem 0;border-bottom:1px solid #ccc}
.stacked td{display:block;border:0;padding:.15rem 0}}
.history h3{margin:1.25rem 0 0}.history h4{margin:.5rem 0 0}.history-summary{margin:0}.history-bars,.history-legend{list-style:none;margin:.25rem 0;padding:0;display:flex}.history-bars{gap:1px;height:2.25rem;align-items:flex-end}.history-bars .history-bar{flex:1 1 0;min-width:0}
.history-legend{flex-wrap:wrap;gap:.25rem 1rem}.history-legend li{display:flex;align-items:flex-end;gap:.3rem;height:1.25rem;line-height:1}.history-legend .history-bar{width:.6rem}.history-ends{display:flex;justify-content:space-between;margin:0;color:#333;font-size:.875rem}
.history-bar{height:100%;background:#1b7f3b}.history-bar[data-state=DEGRADED]{height:66%;background:#b35c00}.history-bar[data-state=DOWN]{height:33%;background:#a4161a}
.history-bar[data-state=MAINTENANCE]{background:repeating-linear-gradient(45deg,#0b3d91 0 3px,#6d8fd0 3px 6px)}.history-bar[data-state=NO_DATA]{height:15%;background:#767676}
.table{overflow-x:auto}.sr-only{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)}code{word-break:break-all}
`;

/** `product` names the console in the header and title: the partners' console by default, or the operators'. */
export function Page(props: { title: string; nav?: Child; product?: string; children: Child }) {
  const product = props.product ?? "데이터 수집 콘솔";
  return (
    <html lang="ko">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{`${props.title} · ${product}`}</title>
        {/* Raw: the sheet is this file's constant, and escaped quotes would void its font list and its labels. */}
        <style>{raw(STYLE)}</style>
      </head>
      <body>
        <header>
          <strong>{product}</strong>
          {props.nav}
        </header>
        <main>
          <h1>{props.title}</h1>
          {props.children}
        </main>
      </body>
    </html>
  );
}

export const CsrfField = (props: { token: string }) => <input type="hidden" name={CSRF_FIELD} value={props.token} />;

/** What a page shows after one of its forms: the refusal with its code, or what was done. */
export const Outcome = (props: { shown: FormOutcome }) => (
  <>
    <ErrorAlert error={props.shown.error} />
    {props.shown.done && (
      <p class="notice" role="status">
        {props.shown.done}
      </p>
    )}
  </>
);

/**
 * A one-button form carrying the CSRF token; `label` names it for screen readers where the button's text alone does
 * not say what it acts on (a row's "삭제" or "다시 보내기").
 */
export const ActionButton = (props: { action: string; csrf: string; text: string; label?: string; danger?: boolean }) => (
  <form method="post" action={props.action}>
    <CsrfField token={props.csrf} />
    <button type="submit" class={props.danger ? "danger" : undefined} aria-label={props.label}>
      {props.text}
    </button>
  </form>
);

/**
 * A table's box, scrolled sideways when the table is wider than the screen. It takes the keyboard's focus, so someone
 * without a mouse or touch can scroll it with the arrow keys too (axe: scrollable-region-focusable).
 */
export const SidewaysScroll = (props: { children: Child }) => (
  <div class="table" tabindex={0}>
    {props.children}
  </div>
);

/** A heading read out to screen readers but not shown: an action column's, whose buttons say what they do. */
export type HiddenHeading = { hidden: string };

/**
 * Rows under column headings, scrolled sideways on a narrow screen; `foot` rows go below them (totals). `stacked`: on a
 * phone each row is a block of its cells instead (cells that say what they hold), so a row's buttons stay on screen.
 */
export const DataTable = (props: { id?: string; columns: (string | HiddenHeading)[]; foot?: Child; stacked?: boolean; children: Child }) => (
  <SidewaysScroll>
    <table id={props.id} class={props.stacked ? "stacked" : undefined}>
      <thead>
        <tr>
          {props.columns.map((column) => (
            <th scope="col">{typeof column === "string" ? column : <span class="sr-only">{column.hidden}</span>}</th>
          ))}
        </tr>
      </thead>
      <tbody>{props.children}</tbody>
      {props.foot && <tfoot>{props.foot}</tfoot>}
    </table>
  </SidewaysScroll>
);

/** A row's delete button, named for screen readers by what it deletes. */
export const DeleteForm = (props: { action: string; csrf: string; label: string }) => <ActionButton {...props} text="삭제" danger />;

/** A refused form's catalog code and Korean message, announced to screen readers. */
export function ErrorAlert(props: { error?: ApiError }) {
  if (!props.error) return null;
  return (
    <div class="alert" role="alert" data-code={props.error.code}>
      <p>{props.error.message}</p>
      {props.error.fieldErrors && (
        <ul>
          {props.error.fieldErrors.map((f) => (
            <li data-field={f.field} data-code={f.code}>
              {f.message}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
