import type { RedactionRule } from "../adapter";

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

/** A match kept only as its shape: digits `#`, Hangul `○`. */
const shape = (match: string) => match.replace(/[0-9]/g, "#").replace(/[가-힣]/g, "○");

const globalFlags = (flags: string) => (flags.includes("g") ? flags : `${flags}g`);

/**
 * Text outside a page (an institution's message in a failure's detail, an error's stack) with the same rules the
 * page gets: what a log line or a report's detail may keep of it.
 */
export function redactText(text: string, rules: readonly RedactionRule[] = COMMON_REDACTION): string {
  return rules.reduce((t, r) => t.replace(new RegExp(r.pattern.source, globalFlags(r.pattern.flags)), (m) => r.replacement ?? shape(m)), text);
}

/**
 * A page's address as a report keeps it: scheme, host and the path (redacted by the rules, for numbers in paths),
 * never the query, the fragment or user info, where a site puts account numbers, names and tokens. An address that
 * is not http(s) (`about:blank`, `data:` with a page in it) keeps its scheme only.
 */
export function reportUrl(address: string, rules: readonly RedactionRule[] = COMMON_REDACTION): string | null {
  if (!URL.canParse(address)) return null;
  const url = new URL(address);
  if (url.protocol !== "http:" && url.protocol !== "https:") return url.protocol;
  return `${url.origin}${redactText(url.pathname, rules)}`;
}

/**
 * The redaction as page-side source text (bundlers rewrite functions, see adapter.ts BrowserPage), evaluating to the
 * redacted page's HTML. On the live page, before any capture (docs/security.md, "Third layer: failure reports"):
 * frames, embedded documents and canvas drawings go; every input, text area and select is blanked (value and
 * attribute, so what a person typed shows neither in the HTML nor in the screenshot); text nodes and the attributes a
 * page can show are rewritten by the rules; event handlers, `data-*`, `value` attributes, comments and script text
 * lose every digit and Hangul letter (they are data, not labels); open shadow roots get the same, all the way down.
 * Then a copy in an inert document (nothing in it loads or runs) also gets the attributes whose change would reload
 * or restyle the live page (URLs, which lose their query and fragment, `style`, `class`, `id`) and template contents,
 * and its serialisation is the answer. A second evaluation is a no-op on what the first left.
 */
export function redactionScript(rules: readonly RedactionRule[]): string {
  const serialized = JSON.stringify(rules.map((r) => ({ source: r.pattern.source, flags: globalFlags(r.pattern.flags), replacement: r.replacement ?? null })));
  return `(() => {
    const rules = ${serialized}.map((r) => ({ re: new RegExp(r.source, r.flags), replacement: r.replacement }));
    const shape = (match) => match.replace(/[0-9]/g, "#").replace(/[가-힣]/g, "○");
    const redact = (text) => rules.reduce((t, r) => t.replace(r.re, (m) => r.replacement ?? shape(m)), text);
    const shapeAll = (text) => shape(redact(text));
    const URL_ATTRIBUTES = new Set(["href", "src", "srcset", "imagesrcset", "action", "formaction", "cite", "data", "poster", "background", "longdesc", "ping", "manifest", "codebase", "xlink:href", "lowsrc", "dynsrc"]);
    const RESTYLING = new Set(["style", "class", "id"]);
    const bare = (url) => url.split(/[?#]/)[0];
    const urlValue = (name, value) => {
      if (/^\\s*(javascript|data|blob):/i.test(value)) return shapeAll(value.split(/[?#]/)[0].slice(0, 200));
      if (name === "srcset" || name === "imagesrcset") return value.split(",").map((part) => { const [url, ...descriptor] = part.trim().split(/\\s+/); return [redact(bare(url)), ...descriptor].join(" "); }).join(", ");
      if (name === "ping") return value.split(/\\s+/).map((url) => redact(bare(url))).join(" ");
      return redact(bare(value));
    };
    const attributeValue = (name, value, whole) => {
      if (URL_ATTRIBUTES.has(name)) return whole ? urlValue(name, value) : value;
      if (RESTYLING.has(name)) return whole ? redact(value) : value;
      if (name === "value" || name.startsWith("on") || name.startsWith("data-")) return shapeAll(value);
      return redact(value);
    };
    const blank = (el) => {
      const tag = el.localName;
      if (tag === "input") {
        try { el.value = ""; } catch {}
        if (el.hasAttribute("value")) el.setAttribute("value", "");
      } else if (tag === "textarea") {
        el.value = "";
        el.textContent = "";
      } else if (tag === "select") {
        for (const option of el.options) { option.selected = false; option.removeAttribute("selected"); }
        el.selectedIndex = -1;
      }
    };
    const scrub = (root, whole) => {
      for (const el of root.querySelectorAll("iframe, frame, object, embed, portal, fencedframe")) {
        const box = el.getBoundingClientRect();
        const stand = el.ownerDocument.createElement("div");
        stand.setAttribute("data-report-removed", el.localName);
        stand.setAttribute("style", "display:inline-block;box-sizing:border-box;border:1px dashed #999;width:" + Math.round(box.width) + "px;height:" + Math.round(box.height) + "px");
        el.replaceWith(stand);
      }
      for (const canvas of root.querySelectorAll("canvas")) canvas.replaceWith(canvas.cloneNode(true));
      const walker = (root.ownerDocument ?? root).createTreeWalker(root, NodeFilter.SHOW_TEXT | NodeFilter.SHOW_COMMENT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const parent = node.parentNode && node.parentNode.localName;
        if (node.nodeType === Node.COMMENT_NODE || parent === "script") node.nodeValue = shapeAll(node.nodeValue);
        else if (parent !== "style" || whole) node.nodeValue = redact(node.nodeValue);
      }
      for (const el of root.querySelectorAll("*")) {
        for (const attribute of [...el.attributes]) {
          const value = attributeValue(attribute.name.toLowerCase(), attribute.value, whole);
          if (value !== attribute.value) attribute.value = value;
        }
        blank(el);
        if (el.shadowRoot) scrub(el.shadowRoot, whole);
        if (whole && el.localName === "template") scrub(el.content, whole);
      }
    };
    scrub(document, false);
    const inert = document.implementation.createHTMLDocument("");
    const copy = inert.importNode(document.documentElement, true);
    inert.replaceChild(copy, inert.documentElement);
    scrub(inert, true);
    const doctype = document.doctype ? new XMLSerializer().serializeToString(document.doctype) : "";
    return doctype + copy.outerHTML;
  })()`;
}
