import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { createServer, type IncomingMessage } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { demoWorkspace, newApiKey, newDemoPassword, type WorkspaceSeed } from "../../../scripts/demo-seed";
import { freePort } from "../../../scripts/free-port";
import { buildWorkerBundle, type LocalStack, startLocalStack } from "../../../scripts/local-stack";
import { PROFILES, type ProfileName } from "./profiles";
import { NAMED_WORKSPACES, type WorkspaceName } from "./workspaces";

declare module "vitest" {
  export interface ProvidedContext {
    /** Where test files ask the global setup for a stack (test/support/e2e/stack.ts). */
    e2eControl: string;
  }
}

/** What a file gets: a stack's addresses, a workspace no other file uses, and the keys of the named workspaces. */
export interface Claim {
  baseUrl: string;
  /** The stack's sandbox institutions, for their ground truth. */
  sandboxUrl: string;
  apiKey: string;
  demoUser: { email: string; password: string };
  named: Record<WorkspaceName, { apiKey: string }>;
  /** The stack's operator (an admin): one for the stack, so one file signs in as it (a TOTP code opens one session). */
  demoOperator: { email: string; password: string; totpSecret: string };
}

interface Running {
  stack: LocalStack;
  workspaces: Pick<Claim, "apiKey" | "demoUser">[];
  named: Claim["named"];
}

const ROOT = path.resolve(import.meta.dirname, "../../..");

/** The pool's workspaces after the stack's own demo workspace: each the demo's twin, with its own key and user. */
function twins(count: number): WorkspaceSeed[] {
  return Array.from({ length: count }, (_, i) => ({
    ...demoWorkspace(newApiKey(), { email: `demo-${i + 1}@collect-edge.co.kr`, password: newDemoPassword() }),
    workspaceId: crypto.randomUUID(),
    name: `데모 워크스페이스 ${i + 1}`,
  }));
}

async function body(request: IncomingMessage): Promise<Record<string, any>> {
  let text = "";
  for await (const chunk of request) text += chunk;
  return JSON.parse(text);
}

/**
 * Starts each profile's local stack once, when a file first claims it, and serves the files over HTTP on this
 * machine (they run in worker processes; the stacks' processes are this one's children): claims and the
 * kills and restarts of fault tests. Stops every stack and removes its state at the end of the run.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const running = new Map<ProfileName, Promise<Running>>();
  const persistDirs: string[] = [];
  // Every profile serves the same code: one bundle for all, the one `npm test`'s deploy:check made
  // (scripts/test-all.sh), else built when the first profile starts.
  let bundle: Promise<string> | undefined;
  const bundleDir = () => {
    const made = process.env.WORKER_BUNDLE_DIR;
    if (made && existsSync(path.join(made, "index.js"))) return Promise.resolve(made);
    const dir = mkdtempSync(path.join(tmpdir(), "collect-e2e-bundle-"));
    persistDirs.push(dir);
    return buildWorkerBundle(dir);
  };

  const start = async (name: ProfileName): Promise<Running> => {
    const { workspaces, ...options } = PROFILES[name];
    const persistTo = mkdtempSync(path.join(tmpdir(), `collect-e2e-${name}-`));
    persistDirs.push(persistTo);
    const seeds = twins(workspaces - 1);
    const named = Object.entries(NAMED_WORKSPACES).map(([workspace, spec]) => ({
      workspace,
      seed: { ...spec, workspaceId: crypto.randomUUID(), name: workspace, apiKey: newApiKey() },
    }));
    const stack = await startLocalStack({
      ...options,
      seeds: [...seeds, ...named.map((n) => n.seed)],
      port: await freePort(),
      sandboxPort: await freePort(),
      scraperPort: await freePort(),
      persistTo,
      // The end-to-end stacks run Hometax jobs against the replica: no pace, said here (collectors/registry.ts).
      hometaxPaceMs: 0,
      bundleDir: (bundle ??= bundleDir()),
      logDir: path.join(ROOT, "test-artifacts/e2e", name),
    });
    return {
      stack,
      workspaces: [{ apiKey: stack.apiKey, demoUser: stack.demoUser }, ...seeds.map((seed) => ({ apiKey: seed.apiKey, demoUser: seed.user! }))],
      named: Object.fromEntries(named.map((n) => [n.workspace, { apiKey: n.seed.apiKey }])) as Claim["named"],
    };
  };
  const stackOf = (name: ProfileName) => {
    if (!(name in PROFILES)) throw new Error(`no stack profile ${name}`);
    if (!running.has(name)) running.set(name, start(name));
    return running.get(name)!;
  };

  const actions: Record<string, (profile: Running, request: Record<string, any>) => Promise<unknown>> = {
    claim: async ({ stack, workspaces, named }) => {
      const workspace = workspaces.shift();
      if (!workspace) throw new Error("every seeded workspace of this profile is claimed: raise its `workspaces` in test/support/e2e/profiles.ts");
      return { baseUrl: stack.baseUrl, sandboxUrl: stack.sandboxUrl, ...workspace, named, demoOperator: stack.demoOperator } satisfies Claim;
    },
    "kill-scraper": ({ stack }) => stack.killScraper(),
    "start-scraper": ({ stack }) => stack.startScraper(),
    "kill-worker": ({ stack }) => stack.killWorker(),
    "start-worker": ({ stack }) => stack.startWorker(),
    // Time is the only other way a registration session expires (30 minutes): its expiry is moved into the past in the
    // stack's local D1, as bench/pipeline.ts writes it, not by a route production would carry.
    "expire-registration-session": async ({ stack }, { sessionId }) => {
      if (typeof sessionId !== "string" || !/^[0-9a-f-]{36}$/.test(sessionId)) throw new Error(`not a session id: ${sessionId}`);
      // The running worker holds D1's file for a moment at a time: a write meeting it is refused SQLITE_BUSY, not queued.
      for (let attempt = 1; ; attempt++) {
        try {
          return await stack.wrangler(["d1", "execute", "collect", "--command", `UPDATE registration_sessions SET expires_at = ${Date.now() - 1000} WHERE id = '${sessionId}'`]);
        } catch (err) {
          if (attempt === 20 || !String(err).includes("SQLITE_BUSY")) throw err;
          await new Promise((resolve) => setTimeout(resolve, 500));
        }
      }
    },
  };

  const server = createServer(async (request, response) => {
    try {
      const action = actions[request.url!.slice(1)];
      if (!action) throw new Error(`no action ${request.url}`);
      const payload = await body(request);
      const result = await action(await stackOf(payload.profile), payload);
      response.writeHead(200, { "Content-Type": "application/json" }).end(JSON.stringify(result ?? null));
    } catch (err) {
      response.writeHead(500, { "Content-Type": "text/plain" }).end(String((err as Error).stack ?? err));
    }
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  project.provide("e2eControl", `http://127.0.0.1:${port}`);

  return async () => {
    server.close();
    await Promise.all([...running.values()].map(async (started) => (await started.catch(() => null))?.stack.stop()));
    for (const dir of persistDirs) rmSync(dir, { recursive: true, force: true });
  };
}
