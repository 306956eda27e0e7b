import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import ts from "typescript";

/** An import from one source file to another, both relative to the repository's root. */
export interface Import {
  from: string;
  to: string;
}

const SOURCE = /\.(ts|tsx)$/;

export function sourceFiles(root: string, dir: string): string[] {
  return readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const relative = path.posix.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "vendor" || entry.name === "node_modules" ? [] : sourceFiles(root, relative);
    return SOURCE.test(entry.name) && !entry.name.endsWith(".d.ts") ? [relative] : [];
  });
}

function resolveRelative(root: string, from: string, specifier: string): string | undefined {
  const base = path.posix.join(path.posix.dirname(from), specifier);
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, `${base}/index.ts`, `${base}/index.tsx`]) {
    const full = path.join(root, candidate);
    if (existsSync(full) && statSync(full).isFile()) return path.posix.normalize(candidate);
  }
  return undefined;
}

/**
 * The relative imports of one file: static imports and re-exports, `import type` as much as values (a type names its
 * owner as a value does), dynamic imports and `import("…")` types.
 */
export function importsOf(root: string, file: string): Import[] {
  const text = readFileSync(path.join(root, file), "utf8");
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, file.endsWith(".tsx") ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const specifiers: string[] = [];
  const visit = (node: ts.Node): void => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      specifiers.push(node.moduleSpecifier.text);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      specifiers.push(node.argument.literal.text);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && node.arguments[0] && ts.isStringLiteral(node.arguments[0])) {
      specifiers.push(node.arguments[0].text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return specifiers.flatMap((specifier) => {
    if (!specifier.startsWith(".")) return [];
    const to = resolveRelative(root, file, specifier);
    return to ? [{ from: file, to }] : [];
  });
}

/** The folder a file belongs to at a given depth under a root folder: `worker/domain/jobs/store.ts` at depth 2 is `worker/domain/jobs`; a file directly in a shallower folder is its own node. */
export function folderOf(file: string, depth: number): string {
  const parts = file.split("/");
  return parts.length > depth + 1 ? parts.slice(0, depth + 1).join("/") : file;
}

/** Folder-to-folder imports, each edge with one file pair as its witness. */
export function folderGraph(imports: Import[], folder: (file: string) => string | undefined): Map<string, Map<string, string>> {
  const graph = new Map<string, Map<string, string>>();
  for (const { from, to } of imports) {
    const a = folder(from);
    const b = folder(to);
    if (!a || !b || a === b) continue;
    const edges = graph.get(a) ?? new Map<string, string>();
    if (!edges.has(b)) edges.set(b, `${from} -> ${to}`);
    graph.set(a, edges);
  }
  return graph;
}

/** Strongly connected components of more than one node (Tarjan): each is an import circle. */
export function cycles(graph: Map<string, Map<string, string>>): string[][] {
  let index = 0;
  const indexOf = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const connect = (node: string): void => {
    indexOf.set(node, index);
    low.set(node, index);
    index += 1;
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node)?.keys() ?? []) {
      if (!indexOf.has(next)) {
        connect(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node)!, indexOf.get(next)!));
    }
    if (low.get(node) === indexOf.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const node of graph.keys()) if (!indexOf.has(node)) connect(node);
  return found;
}
