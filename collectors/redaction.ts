import type { RedactionRule } from "./adapter";

/**
 * Personal data as every Korean institution's pages show it (docs/operations.md, "Scraper failure reports"): resident
 * and business registration numbers, phone numbers, account and card numbers (any run of digits joined by dashes or
 * spaces), amounts with thousands separators, e-mail addresses. Institutions add their own (names, as their pages
 * greet people) in their adapter's `redaction`.
 */
export const COMMON_REDACTION: readonly RedactionRule[] = [
  { pattern: /[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}/g, replacement: "○○○@○○○" },
  { pattern: /\d{6}-?[1-8]\d{6}/g },
  { pattern: /0\d{1,2}-\d{3,4}-\d{4}/g },
  { pattern: /\d{2,6}(?:[- ]\d{2,8}){1,4}/g },
  { pattern: /\d{1,3}(?:,\d{3})+/g },
  { pattern: /\d{5,}/g },
];

/**
 * The redaction as page-side source text (bundlers rewrite functions, see adapter.ts BrowserPage): rewrites every
 * text node, input value and `value`/`title`/`alt`/`href` attribute in place, so both the HTML and the screenshot taken
 * after it are free of what the rules match.
 */
export function redactionScript(rules: readonly RedactionRule[]): string {
  const serialized = JSON.stringify(rules.map((r) => ({ source: r.pattern.source, flags: r.pattern.flags.includes("g") ? r.pattern.flags : `${r.pattern.flags}g`, replacement: r.replacement ?? null })));
  return `(() => {
    const rules = ${serialized}.map((r) => ({ re: new RegExp(r.source, r.flags), replacement: r.replacement }));
    const shape = (match) => match.replace(/[0-9]/g, "#").replace(/[가-힣]/g, "○");
    const redact = (text) => rules.reduce((t, r) => t.replace(r.re, (m) => r.replacement ?? shape(m)), text);
    const walker = document.createTreeWalker(document.documentElement, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) node.nodeValue = redact(node.nodeValue);
    for (const el of document.querySelectorAll("input, textarea")) { el.value = redact(el.value); if (el.hasAttribute("value")) el.setAttribute("value", el.value); }
    for (const el of document.querySelectorAll("[value], [title], [alt], [href]")) for (const name of ["value", "title", "alt", "href"]) if (el.hasAttribute(name)) el.setAttribute(name, redact(el.getAttribute(name)));
    return true;
  })()`;
}
