import { SANDBOX_PORTONE_SECRET } from "../sandbox/portone/gateway";
import { type ChildProcess, spawn } from "node:child_process";
import { appendFileSync, createWriteStream, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { randomBytes } from "node:crypto";
import path from "node:path";
import { DEMO_OPERATOR_EMAIL, DEMO_USER_EMAIL, demoWorkspace, newApiKey, newDemoPassword, operatorSeedSql, type WorkspaceSeed, workspaceSeedSql } from "./demo-seed";
import { scraperAuthorization } from "../contracts/scraper-protocol";
import { REPLICA_SERVICE_KEY } from "../sandbox/nts-business-status/ground-truth";
import { freePort } from "./free-port";
import { startWatchdog } from "./child-watchdog";
import { localInstitutionBaseUrls, localOpenBankingKeys } from "./local-institutions";
import { newRegistrationKeyring } from "./registration-keys";
import { ownDevRegistry } from "./own-dev-registry";

const ROOT = path.resolve(import.meta.dirname, "..");
const BIN = path.join(ROOT, "node_modules", ".bin");

/** `npm start`'s Hometax pace against the replica (StackOptions.hometaxPaceMs), ms: short, yet a pace. */
const LOCAL_HOMETAX_PACE_MS = 100;

export interface StackOptions {
  port: number;
  sandboxPort: number;
  scraperPort: number;
  /** Local D1/R2/DO/Queue state; a fresh directory gives a clean stack. */
  persistTo: string;
  /** The demo key to seed; a new random one when absent. */
  apiKey?: string;
  /** The demo console user's password to seed; a new random one when absent. */
  demoPassword?: string;
  /** The demo operator's password and TOTP secret to seed; new random ones when absent. */
  demoOperator?: { password: string; totpSecret: string };
  /** Extra worker vars (retry tuning in tests). */
  vars?: Record<string, string>;
  /** Where child process output goes; inherited when absent. */
  logDir?: string;
  /** How long the scraper's adapters wait for a page before TIMEOUT (the scraper's default when absent). */
  pageTimeoutMs?: number;
  /** Fire the cron sweep this often, as wrangler dev does not run crons itself. */
  sweepEveryMs?: number;
  /** Scraper processes, the local stand-in for container instances: the first on `scraperPort`, the others on free ports (1 when absent). */
  scrapers?: number;
  /** Sessions each scraper process holds at once (its MAX_SESSIONS; the scraper's default when absent). */
  scraperMaxSessions?: number;
  /** Every sandbox page answers this much later, as real institutions do (0 when absent). */
  sandboxPageLatencyMs?: number;
  /** How long the Open Banking replica's access tokens live (KFTC's 90 days when absent). */
  openBankingTokenSeconds?: number;
  /** Workspaces seeded with the demo workspace, before the worker starts. */
  seeds?: WorkspaceSeed[];
  /** Run the scrapers as runners that connect out to the worker (scraper-container/runner.ts), as on a host in Korea. */
  runners?: boolean;
  /**
   * Hometax's pace against the replica, ms between requests (the scraper's HOMETAX_PACE_MS): the test stacks pass 0;
   * absent, a short pace, so a local job still goes at a pace without the real portal's second a request.
   */
  hometaxPaceMs?: number;
  /** The worker's bundle, built once for several stacks (`buildWorkerBundle`); built for this stack when absent. */
  bundleDir?: Promise<string>;
  /** The wrangler configuration `wrangler dev` runs with (the checkout's wrangler.toml when absent): a benchmark's without a consumer. */
  config?: string;
  /** Where wrangler dev serves the worker's V8 inspector (a free port when absent): a profiler connects to it. */
  inspectorPort?: number;
}

export interface LocalStack {
  baseUrl: string;
  /** Where local D1/R2/DO state lives, for tools that read or write it directly. */
  persistTo: string;
  /** The `wrangler dev` process; workerd runs beneath it. */
  readonly workerPid: number;
  /** The scraper processes' ids (Chromium runs beneath them), for benchmarks that count their CPU. */
  scraperPids(): number[];
  /** Runs a wrangler command against this stack's local state (`--local --persist-to` added). */
  wrangler(args: string[]): Promise<void>;
  sandboxUrl: string;
  /** The first scraper process. */
  scraperUrl: string;
  /** Every scraper process, in instance order. */
  scraperUrls: string[];
  /** What the worker shows the scraper; tools that call the scraper directly (its /stats) need it too. */
  scraperSecret: string;
  apiKey: string;
  /** The console user who owns the demo workspace. */
  demoUser: { email: string; password: string };
  /** The operator (an admin) of the /admin console and API, with the TOTP secret their authenticator app takes. */
  demoOperator: { email: string; password: string; totpSecret: string };
  /** Kills the scraper processes (as a crash would) and starts new ones on the same ports. */
  restartScraper(): Promise<void>;
  /**
   * Kills `wrangler dev` with workerd beneath it, as a crash of the isolate
   * would: deliveries in flight die, and local queues, which live in memory,
   * lose their messages. D1, R2 and Durable Object state stay on disk.
   */
  killWorker(): Promise<void>;
  /** Starts `wrangler dev` again on the same port and state. */
  startWorker(): Promise<void>;
  killScraper(): Promise<void>;
  /**
   * Adds workspaces (key + sandbox credentials) to the running stack's D1, from a second process writing its
   * SQLite file: only while the worker is idle, since a write of the worker's meeting this one fails SQLITE_BUSY.
   */
  seedWorkspaces(seeds: WorkspaceSeed[]): Promise<void>;
  startScraper(): Promise<void>;
  stop(): Promise<void>;
}

export function readDevVars(file: string): Record<string, string> {
  if (!existsSync(file)) return {};
  return Object.fromEntries(
    readFileSync(file, "utf8")
      .split("\n")
      .filter((line) => line.includes("="))
      .map((line) => [line.slice(0, line.indexOf("=")), line.slice(line.indexOf("=") + 1).replace(/^'(.*)'$/, "$1")]),
  );
}

/** How each secret the worker needs (worker/domain/deployment/configuration-problems.ts REQUIRED_SECRETS) is made for a local run. */
const SECRET_MAKERS: Record<string, () => Promise<string>> = {
  CURSOR_SECRET: async () => randomBytes(32).toString("base64url"),
  // wrangler dev reads it from .dev.vars for the worker; startLocalStack hands it to the scraper process.
  SCRAPER_SHARED_SECRET: async () => randomBytes(32).toString("base64url"),
  VAULT_MASTER_KEY: async () => `v1:${randomBytes(32).toString("base64url")}`,
  REGISTRATION_E2E_KEYS: () => newRegistrationKeyring(),
  DOWNLOAD_LINK_KEYS: async () => `k1:${randomBytes(32).toString("base64url")}`,
};

/** A fresh set of the secrets, kept nowhere: for a worker started only to be asked something and stopped. */
export async function freshSecrets(): Promise<Record<string, string>> {
  const entries = await Promise.all(Object.entries(SECRET_MAKERS).map(async ([name, make]) => [name, await make()] as const));
  return Object.fromEntries(entries);
}

/** Secrets of the local stack, made once per checkout and kept in .dev.vars (gitignored); missing ones are added. */
export async function localSecrets(): Promise<Record<string, string>> {
  const file = path.join(ROOT, ".dev.vars");
  const secrets = readDevVars(file);
  for (const [name, make] of Object.entries(SECRET_MAKERS)) {
    if (secrets[name]) continue;
    secrets[name] = await make();
    appendFileSync(file, `${name}='${secrets[name]}'\n`);
  }
  return secrets;
}

/**
 * Bundles the worker into `outDir` and answers it. Stacks are served from a bundle built once, not from the sources:
 * `wrangler dev` on the sources rebuilds and reloads the runtime whenever a directory its bundler listed changes (a new
 * entry in node_modules or beside the checkout), which drops every delivery in flight and the local queue's messages
 * (docs/pipeline.md).
 */
export async function buildWorkerBundle(outDir: string): Promise<string> {
  await run(path.join(BIN, "wrangler"), ["deploy", "--dry-run", "--outdir", outDir], { ...process.env, CI: "1" });
  return outDir;
}

/**
 * A fresh database's whole schema as one SQL file's text, recorded as `wrangler d1 migrations apply` records it (its
 * table, a row per file), so later applies add only newer files. One `d1 execute` instead of `migrations apply`, which
 * spent 26 CPU-seconds on 31 files (a runtime started per file), twice per end-to-end run.
 */
export function freshSchemaSql(): string {
  const dir = path.join(ROOT, "drizzle");
  const files = readdirSync(dir).filter((name) => name.endsWith(".sql")).sort();
  return [
    `CREATE TABLE IF NOT EXISTS "d1_migrations"(id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT UNIQUE, applied_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP NOT NULL);`,
    ...files.flatMap((name) => [readFileSync(path.join(dir, name), "utf8"), `INSERT INTO "d1_migrations" (name) VALUES ('${name}');`]),
  ].join("\n");
}

export function run(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, [...args], { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (d) => (output += d));
    child.stderr.on("data", (d) => (output += d));
    child.on("exit", (code) => (code === 0 ? resolve() : reject(new Error(`${command} ${args.join(" ")} failed (${code}):\n${output}`))));
  });
}

/** Resolves once `url` answers 2xx; fails early if the process serving it exits. */
export async function waitFor(url: string, child: ChildProcess, timeoutMs = 300_000, init: RequestInit = {}): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`process for ${url} exited with ${child.exitCode}`);
    try {
      const response = await fetch(url, init);
      await response.arrayBuffer();
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`timed out waiting for ${url}`);
}

/** Resolves once nothing answers on `url` any more, so a restarted server can take its port. */
async function waitUntilClosed(url: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      await (await fetch(url)).arrayBuffer();
    } catch {
      return;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url} still answers after ${timeoutMs} ms`);
}

/**
 * Brings up the whole local service: the sandbox institutions, the scraper
 * process with Debian's Chromium, and `wrangler dev` with local D1, R2,
 * Queues and Durable Objects; migrates and seeds the demo workspace.
 */
export async function startLocalStack(options: StackOptions): Promise<LocalStack> {
  const env = { ...process.env, PATH: `${BIN}${path.delimiter}${process.env.PATH}`, WRANGLER_SEND_METRICS: "false", NO_COLOR: "1" };
  const children = new Set<ChildProcess>();
  // Ends the children should this process die before stop() (a SIGKILL, a closed terminal): scripts/child-watchdog.ts.
  const watchdog = startWatchdog();
  const secrets = await localSecrets();
  const logs = options.logDir;
  if (logs) mkdirSync(logs, { recursive: true });

  // Node with tsx as a loader, not the tsx CLI: one process per service, so a kill really stops it.
  const node = (script: string) => [path.join(BIN, "node"), ["--import", "tsx", script]] as const;
  // Each child leads a process group of its own, so a kill reaches what it spawned too (workerd beneath wrangler,
  // Chromium beneath a scraper), and the watchdog ends the whole group.
  const spawnLogged = (name: string, command: string, args: readonly string[], extraEnv: Record<string, string>) => {
    const child = spawn(command, [...args], { cwd: ROOT, env: { ...env, ...extraEnv }, stdio: logs ? ["ignore", "pipe", "pipe"] : "inherit", detached: true });
    watchdog.watch(child);
    if (logs) {
      const out = createWriteStream(path.join(logs, `${name}.log`), { flags: "a" });
      // Both streams share the file: neither may end it while the other still writes (an uncaught write after end).
      child.stdout!.pipe(out, { end: false });
      child.stderr!.pipe(out, { end: false });
      child.on("close", () => out.end());
    }
    children.add(child);
    child.on("exit", () => children.delete(child));
    return child;
  };

  const sandboxUrl = `http://127.0.0.1:${options.sandboxPort}`;
  const scraperPorts = [options.scraperPort];
  while (scraperPorts.length < (options.scrapers ?? 1)) scraperPorts.push(await freePort());
  const scraperUrls = scraperPorts.map((port) => `http://127.0.0.1:${port}`);
  const baseUrl = `http://127.0.0.1:${options.port}`;
  // The worker's Open Banking callback (worker/domain/registration/open-banking.ts CALLBACK_PATH), configured rather than
  // taken from a request's Host, and registered for the replica's 이용기관 as a Callback URL is at KFTC.
  const openBankingCallbackUrl = options.vars?.OPENBANKING_CALLBACK_URL ?? `${baseUrl}/connect/open-banking/callback`;
  const scrapers: (ChildProcess | null)[] = scraperPorts.map(() => null);

  // Real institutions answer from their replicas in the sandbox (nothing local reaches the internet), unless this
  // process's INSTITUTION_BASE_URLS names a provider. The worker reads them too: it sends a browser to Open Banking's
  // authorization page at its stand-in.
  const institutionBaseUrls = JSON.stringify(localInstitutionBaseUrls(sandboxUrl));
  const openBankingKeys = localOpenBankingKeys();
  const scraperEnv = {
    SCRAPER_SHARED_SECRET: secrets.SCRAPER_SHARED_SECRET!,
    SANDBOX_BASE_URL: sandboxUrl,
    INSTITUTION_BASE_URLS: institutionBaseUrls,
    // The replica's service key (docs/institutions/nts-business-status.md §9): the real API never sees it.
    NTS_SERVICE_KEY: REPLICA_SERVICE_KEY,
    HOMETAX_PACE_MS: String(options.hometaxPaceMs ?? LOCAL_HOMETAX_PACE_MS),
    // The 이용기관 keys the scraper exchanges and refreshes consents with (the replica's unless the environment's).
    ...openBankingKeys,
    ...(options.pageTimeoutMs ? { PAGE_TIMEOUT_MS: String(options.pageTimeoutMs) } : {}),
    ...(options.scraperMaxSessions ? { MAX_SESSIONS: String(options.scraperMaxSessions) } : {}),
    // Route deliveries may reach an SFTP server on this machine, as webhooks may (WEBHOOK_ALLOW_LOCAL_URLS); production refuses loopback.
    SFTP_ALLOW_LOCAL_HOSTS: "1",
  };
  const startScraper = async () => {
    await Promise.all(
      scraperPorts.map(async (port, instance) => {
        const name = instance === 0 ? "scraper" : `scraper-${instance}`;
        if (options.runners) {
          // A runner has no address to wait on: it is ready once the worker says its slot is held (runnerReady).
          scrapers[instance] = spawnLogged(name, ...node("scraper-container/runner.ts"), { ...scraperEnv, RUNNER_WORKER_URL: baseUrl, RUNNER_SLOT: String(instance) });
          return;
        }
        const scraper = spawnLogged(name, ...node("scraper-container/server.ts"), { ...scraperEnv, SCRAPER_PORT: String(port) });
        scrapers[instance] = scraper;
        await waitFor(`${scraperUrls[instance]}/healthz`, scraper);
      }),
    );
  };
  const runnerReady = () =>
    Promise.all(
      scrapers.map((runner, slot) => waitFor(`${baseUrl}/runner/status/${slot}`, runner!, 90_000, { headers: { Authorization: scraperAuthorization(secrets.SCRAPER_SHARED_SECRET!) } })),
    );
  const killScraper = async () => {
    await Promise.all(
      scrapers.map(async (current) => {
        if (!current || current.exitCode !== null) return;
        const exited = new Promise((r) => current.once("exit", r));
        current.kill("SIGKILL");
        await exited;
      }),
    );
  };

  let sweepTimer: NodeJS.Timeout | undefined;
  const stop = async () => {
    clearInterval(sweepTimer);
    await Promise.all(
      [...children].map((child) => {
        const exited = new Promise((r) => child.once("exit", r));
        child.kill("SIGTERM");
        const force = setTimeout(() => child.kill("SIGKILL"), 5000);
        return exited.then(() => clearTimeout(force));
      }),
    );
    watchdog.release();
  };

  try {
    const sandbox = spawnLogged("sandbox", ...node("sandbox/server.ts"), {
      SANDBOX_PORT: String(options.sandboxPort),
      SANDBOX_PAGE_LATENCY_MS: String(options.sandboxPageLatencyMs ?? 0),
      SANDBOX_OPENBANKING_CALLBACK_URLS: openBankingCallbackUrl,
      ...(options.openBankingTokenSeconds ? { SANDBOX_OPENBANKING_TOKEN_SECONDS: String(options.openBankingTokenSeconds) } : {}),
    });
    const sandboxReady = waitFor(`${sandboxUrl}/healthz`, sandbox);
    const scraperReady = startScraper();

    const wrangler = (args: string[]) => run(path.join(BIN, "wrangler"), [...args, "--local", "--persist-to", options.persistTo], { ...env, CI: "1" });
    const operatorSeed = { email: DEMO_OPERATOR_EMAIL, role: "admin" as const, password: options.demoOperator?.password ?? newDemoPassword(), totpSecret: options.demoOperator?.totpSecret };
    const demoOperator = await operatorSeedSql(operatorSeed, secrets.VAULT_MASTER_KEY!);
    const seedSql = async (seeds: WorkspaceSeed[]) => Promise.all(seeds.map((seed) => workspaceSeedSql(seed, secrets.VAULT_MASTER_KEY!)));
    const execute = async (statements: string[]) => {
      const file = path.join(options.persistTo, `seed-${Date.now()}.sql`);
      writeFileSync(file, statements.join("\n"));
      await wrangler(["d1", "execute", "collect", "--file", file]);
    };
    const seedWorkspaces = async (seeds: WorkspaceSeed[]) => execute(await seedSql(seeds));
    const apiKey = options.apiKey ?? newApiKey();
    const fresh = !existsSync(path.join(options.persistTo, "v3", "d1"));
    mkdirSync(options.persistTo, { recursive: true });
    const demoUser = { email: DEMO_USER_EMAIL, password: options.demoPassword ?? newDemoPassword() };
    const seeds = [...(await seedSql([demoWorkspace(apiKey, demoUser), ...(options.seeds ?? [])])), demoOperator.sql];
    // A fresh database takes its schema and seeds in one statement file; a kept one (npm start's) applies the newer migrations first.
    const migrateAndSeed = fresh ? execute([freshSchemaSql(), ...seeds]) : wrangler(["d1", "migrations", "apply", "collect"]).then(() => execute(seeds));
    // Built while D1 is migrated and seeded, as neither needs the other.
    const [bundleDir] = await Promise.all([options.bundleDir ?? buildWorkerBundle(path.join(options.persistTo, "worker-bundle")), migrateAndSeed]);

    // Deliveries run side by side as production's concurrent consumer invocations run them (worker/domain/pipeline/detached-delivery.ts).
    // Webhook endpoints may point at this machine (a receiver beside the stack, `webhooks listen`); production refuses them.
    const scraperVars = options.runners ? { SCRAPER_RUNNERS: String(scraperUrls.length) } : { SCRAPER_URL: scraperUrls.join(",") };
    const openBankingVars = { OPENBANKING_CLIENT_ID: openBankingKeys.OPENBANKING_CLIENT_ID, OPENBANKING_CALLBACK_URL: openBankingCallbackUrl, INSTITUTION_BASE_URLS: institutionBaseUrls };
    const vars = { ...scraperVars, ...openBankingVars, SANDBOX_BASE_URL: sandboxUrl, PORTONE_API_URL: `${sandboxUrl}/portone`, PORTONE_API_SECRET: SANDBOX_PORTONE_SECRET, BILLING_TEST_CLOCK: "1", NTS_SERVICE_KEY: REPLICA_SERVICE_KEY, CONCURRENT_DELIVERIES: "1", WEBHOOK_ALLOW_LOCAL_URLS: "1", MAIL_OUTBOX_ONLY: "1", PUBLIC_ORIGIN: baseUrl, ...options.vars };
    const varArgs = Object.entries(vars).flatMap(([k, v]) => ["--var", `${k}:${v}`]);
    let worker: ChildProcess;
    const startWorker = async () => {
      worker = spawnLogged(
        "worker",
        path.join(BIN, "wrangler"),
        [
          "dev", path.join(bundleDir, "index.js"), "--no-bundle", "--config", options.config ?? path.join(ROOT, "wrangler.toml"),
          "--local", "--ip", "127.0.0.1", "--port", String(options.port), "--inspector-port", String(options.inspectorPort ?? (await freePort())),
          "--show-interactive-dev-session=false", "--persist-to", options.persistTo, ...varArgs,
        ],
        // A registry of its own: in the machine's, a stack's queue messages may be delivered to another stack.
        ownDevRegistry(options.persistTo),
      );
      await waitFor(`${baseUrl}/api/v1/openapi.json`, worker);
    };
    const killWorker = async () => {
      const exited = new Promise((r) => worker.once("exit", r));
      process.kill(-worker.pid!, "SIGKILL");
      await exited;
      await waitUntilClosed(baseUrl);
    };
    await Promise.all([sandboxReady, scraperReady, startWorker()]);
    if (options.runners) await runnerReady();

    if (options.sweepEveryMs) {
      sweepTimer = setInterval(() => {
        // A sweep in flight when a fault test kills the worker fails: the next one runs a second later.
        fetch(`${baseUrl}/cdn-cgi/handler/scheduled?cron=*+*+*+*+*`)
          .then((r) => r.arrayBuffer())
          .catch(() => undefined);
      }, options.sweepEveryMs);
    }
    return {
      baseUrl,
      persistTo: options.persistTo,
      get workerPid() {
        return worker.pid!;
      },
      scraperPids: () => scrapers.flatMap((child) => (child?.pid ? [child.pid] : [])),
      wrangler,
      sandboxUrl,
      scraperUrl: scraperUrls[0]!,
      scraperUrls,
      scraperSecret: secrets.SCRAPER_SHARED_SECRET!,
      apiKey,
      demoUser,
      demoOperator: { email: DEMO_OPERATOR_EMAIL, password: operatorSeed.password, totpSecret: demoOperator.totpSecret },
      restartScraper: async () => {
        await killScraper();
        await startScraper();
      },
      killScraper,
      startScraper,
      killWorker,
      startWorker,
      seedWorkspaces,
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}
