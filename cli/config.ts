import { chmod, mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { homedir } from "node:os";
import path from "node:path";

export interface StoredLogin {
  baseUrl: string;
  apiKey: string;
}

export const DEFAULT_BASE_URL = "http://localhost:8787";

/** $XDG_CONFIG_HOME/collect-edge/config.json, ~/.config/collect-edge/config.json without it. */
export function configFile(env: NodeJS.ProcessEnv = process.env): string {
  const root = env.XDG_CONFIG_HOME || path.join(homedir(), ".config");
  return path.join(root, "collect-edge", "config.json");
}

export async function readStoredLogin(env: NodeJS.ProcessEnv = process.env): Promise<Partial<StoredLogin>> {
  try {
    return JSON.parse(await readFile(configFile(env), "utf8")) as Partial<StoredLogin>;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return {};
    throw err;
  }
}

/** The key is a workspace's API key: readable by this user alone (dir 0700, file 0600), whatever the umask. */
export async function storeLogin(login: StoredLogin, env: NodeJS.ProcessEnv = process.env): Promise<string> {
  const file = configFile(env);
  await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  await chmod(path.dirname(file), 0o700);
  await writeFile(file, `${JSON.stringify(login, null, 2)}\n`, { mode: 0o600 });
  await chmod(file, 0o600);
  return file;
}

export async function forgetLogin(env: NodeJS.ProcessEnv = process.env): Promise<boolean> {
  const file = configFile(env);
  try {
    await rm(file);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return false;
    throw err;
  }
}

/**
 * Where to call and with which key: --base-url, then COLLECT_BASE_URL, then
 * the stored login; COLLECT_API_KEY over the stored key (for CI and scripts).
 */
export async function resolveLogin(baseUrlFlag: string | undefined, env: NodeJS.ProcessEnv = process.env): Promise<{ baseUrl: string; apiKey: string | undefined }> {
  const stored = await readStoredLogin(env);
  return {
    // An empty variable counts as unset, as shells and CI files often leave them.
    baseUrl: baseUrlFlag || env.COLLECT_BASE_URL || stored.baseUrl || DEFAULT_BASE_URL,
    apiKey: env.COLLECT_API_KEY || stored.apiKey,
  };
}
