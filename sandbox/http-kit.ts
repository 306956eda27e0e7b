import type { IncomingMessage, ServerResponse } from "node:http";

export function sendHtml(res: ServerResponse, status: number, html: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store", ...headers });
  res.end(html);
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store", ...headers });
  res.end(JSON.stringify(body));
}

export function redirect(res: ServerResponse, location: string): void {
  res.writeHead(302, { Location: location });
  res.end();
}

export async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  try {
    const value = JSON.parse(Buffer.concat(chunks).toString("utf8"));
    return value && typeof value === "object" ? value : {};
  } catch {
    return {};
  }
}

export function cookie(req: IncomingMessage, name: string): string | undefined {
  for (const part of (req.headers.cookie ?? "").split(";")) {
    const [key, ...rest] = part.trim().split("=");
    if (key === name) return rest.join("=");
  }
  return undefined;
}

/** A page of the sandbox sites: Korean, with the site's script inline as a real site would bundle it. */
export function page(title: string, body: string, script = "", siteName = "샌드박스은행 인터넷뱅킹"): string {
  return `<!doctype html>
<html lang="ko"><head><meta charset="utf-8"><title>${title}</title>
<style>body{font-family:"Nanum Gothic",sans-serif;margin:0;color:#222}header{background:#0b3d91;color:#fff;padding:12px 24px}main{padding:24px}
table{border-collapse:collapse;width:100%}th,td{border:1px solid #ccd;padding:6px 8px;font-size:14px}th{background:#eef2fa}td.num{text-align:right}
.error{color:#c00;font-weight:bold}.notice{border:2px solid #c60;padding:24px;background:#fff8ee}</style></head>
<body><header><strong>${siteName}</strong></header><main>${body}</main>${script ? `<script>${script}</script>` : ""}</body></html>`;
}
