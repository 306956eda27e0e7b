import { spawnSync } from "node:child_process";
import path from "node:path";
import { build } from "esbuild";
import { SDK_BUNDLES } from "./bundles";

/** Builds the SDK: ESM for bundlers, an IIFE (`window.CollectSDK`) for a script tag, and type declarations. */
const root = import.meta.dirname;
await build(SDK_BUNDLES.esm);
await build(SDK_BUNDLES.scriptTag);
const tsc = spawnSync(path.join(root, "../node_modules/.bin/tsc"), ["-p", path.join(root, "tsconfig.json")], { stdio: "inherit" });
if (tsc.status !== 0) process.exit(tsc.status ?? 1);
