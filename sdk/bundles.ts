import path from "node:path";
import type { BuildOptions } from "esbuild";

const entry = path.join(import.meta.dirname, "src/index.ts");

/**
 * The SDK's two bundles, as sdk/build.ts writes them to dist/. The partner example builds the script tag's in memory
 * from the same options, so it serves the SDK as the sources are, with no build step before it (a fresh clone has no
 * dist/).
 */
export const SDK_BUNDLES = {
  esm: { entryPoints: [entry], bundle: true, format: "esm", target: "es2020", outfile: path.join(import.meta.dirname, "dist/collect-sdk.mjs") },
  scriptTag: { entryPoints: [entry], bundle: true, format: "iife", globalName: "CollectSDK", target: "es2020", minify: true, outfile: path.join(import.meta.dirname, "dist/collect-sdk.js") },
} satisfies Record<string, BuildOptions>;
