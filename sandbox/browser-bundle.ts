import { build } from "esbuild";

const bundles = new Map<string, Promise<string>>();

/**
 * A browser script of a sandbox site, bundled from TypeScript once per
 * process: what a real site ships as its security module.
 */
export function browserBundle(entry: string): Promise<string> {
  let bundle = bundles.get(entry);
  if (!bundle) {
    bundle = build({ entryPoints: [entry], bundle: true, format: "iife", target: "es2022", minify: true, write: false, logLevel: "silent" }).then((r) => r.outputFiles[0]!.text);
    bundles.set(entry, bundle);
  }
  return bundle;
}
