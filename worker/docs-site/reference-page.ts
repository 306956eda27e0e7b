/**
 * A self-contained API reference rendered in the browser from the generated
 * OpenAPI document: no CDN, so it works offline and under a strict CSP.
 */
export const REFERENCE_PAGE = `<!doctype html>
<html lang="ko">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>데이터 수집 API 레퍼런스</title>
<style>
  body { font-family: system-ui, "Nanum Gothic", sans-serif; margin: 0; color: #1d2433; background: #f7f8fb; }
  header { background: #1d2433; color: #fff; padding: 1.2rem 2rem; }
  main { max-width: 960px; margin: 0 auto; padding: 1rem 2rem 4rem; }
  section.op { background: #fff; border: 1px solid #dfe3ec; border-radius: 8px; margin: 1rem 0; padding: 1rem 1.2rem; }
  .method { display: inline-block; min-width: 4.5rem; font-weight: 700; text-transform: uppercase; }
  .get { color: #0a7a3f; } .post { color: #1456c7; } .delete { color: #b3261e; }
  code, pre { font-family: ui-monospace, monospace; font-size: .85rem; }
  pre { background: #f1f3f8; padding: .6rem; border-radius: 6px; overflow: auto; max-height: 24rem; }
  table { border-collapse: collapse; width: 100%; } td, th { border-bottom: 1px solid #eceff5; text-align: left; padding: .3rem .4rem; vertical-align: top; }
  h2 { margin-top: 2rem; }
</style>
</head>
<body>
<header><h1>데이터 수집 API 레퍼런스</h1><p>OpenAPI 문서: <a style="color:#9cc2ff" href="/api/v1/openapi.json">/api/v1/openapi.json</a></p></header>
<main id="root"><p>불러오는 중…</p></main>
<script type="module">
const doc = await (await fetch("/api/v1/openapi.json")).json();
const root = document.getElementById("root");
root.textContent = "";
const el = (tag, props = {}, ...children) => { const e = Object.assign(document.createElement(tag), props); e.append(...children); return e; };
const intro = el("p", {}, doc.info.description ?? "");
root.append(el("h2", {}, doc.info.title + " " + doc.info.version), intro);
const byTag = new Map();
for (const [path, item] of Object.entries(doc.paths)) for (const [method, op] of Object.entries(item)) {
  const tag = (op.tags ?? ["기타"])[0];
  if (!byTag.has(tag)) byTag.set(tag, []);
  byTag.get(tag).push({ path, method, op });
}
for (const [tag, ops] of byTag) {
  root.append(el("h2", {}, tag));
  for (const { path, method, op } of ops) {
    const s = el("section", { className: "op" });
    s.append(el("h3", {}, el("span", { className: "method " + method }, method), el("code", {}, path), " — " + (op.summary ?? "")));
    if (op.description) s.append(el("p", {}, op.description));
    const params = op.parameters ?? [];
    if (params.length) {
      const t = el("table", {}, el("tr", {}, el("th", {}, "파라미터"), el("th", {}, "위치"), el("th", {}, "설명")));
      for (const p of params) t.append(el("tr", {}, el("td", {}, el("code", {}, p.name)), el("td", {}, p.in), el("td", {}, p.description ?? p.schema?.description ?? "")));
      s.append(t);
    }
    const body = op.requestBody?.content?.["application/json"]?.schema;
    if (body) s.append(el("h4", {}, "요청 본문"), el("pre", {}, JSON.stringify(body, null, 2)));
    const rt = el("table", {}, el("tr", {}, el("th", {}, "상태"), el("th", {}, "설명")));
    for (const [status, r] of Object.entries(op.responses ?? {})) rt.append(el("tr", {}, el("td", {}, status), el("td", {}, r.description ?? "")));
    s.append(el("h4", {}, "응답"), rt);
    root.append(s);
  }
}
root.append(el("h2", {}, "스키마"), el("pre", {}, JSON.stringify(doc.components?.schemas ?? {}, null, 2)));
</script>
</body>
</html>`;
