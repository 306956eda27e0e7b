import { spawnSync } from "node:child_process";
import path from "node:path";
import { build } from "esbuild";

/** Builds the SDK: ESM for bundlers, an IIFE (`window.CollectSDK`) for a script tag, and type declarations. */
const root = import.meta.dirname;
const entry = path.join(root, "src/index.ts");
await build({ entryPoints: [entry], bundle: true, format: "esm", target: "es2020", outfile: path.join(root, "dist/collect-sdk.mjs") });
await build({ entryPoints: [entry], bundle: true, format: "iife", globalName: "CollectSDK", target: "es2020", minify: true, outfile: path.join(root, "dist/collect-sdk.js") });
const tsc = spawnSync(path.join(root, "../node_modules/.bin/tsc"), ["-p", path.join(root, "tsconfig.json")], { stdio: "inherit" });
if (tsc.status !== 0) process.exit(tsc.status ?? 1);
