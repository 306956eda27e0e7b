// start-order: 10 (why: vitest.e2e.config.ts)
import { mkdtempSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { CollectClient } from "../../client/src/index";
import { bankGroundTruth } from "../../sandbox/sandbox-bank/ground-truth";
import { cli, finished, runNode } from "../support/e2e/partner-programs";
import { useStackAndBrowser } from "../support/e2e/stack";
import { GOOD_LOGIN } from "../support/e2e/workspaces";

const { stack, newPage } = useStackAndBrowser();


describe("collect check-credential", () => {
  it("exits 1 and prints the category CREDENTIAL when the institution refuses the stored login", async () => {
    const run = await cli(["check-credential", "sandbox.bank", "--base-url", stack().baseUrl], { COLLECT_API_KEY: stack().named["cli/refused"].apiKey });
    expect(run.code, run.stderr).toBe(1);
    expect(run.stdout).toMatch(/category\s+CREDENTIAL/);
    expect(run.stdout).toMatch(/code\s+LOGIN_FAILED/);

    // The service now knows the credential is refused: the next check fails before logging in, with the refusal it recorded.
    const json = await cli(["check-credential", "sandbox.bank", "--json"], { COLLECT_API_KEY: stack().named["cli/refused"].apiKey, COLLECT_BASE_URL: stack().baseUrl });
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toMatchObject({ providerCode: "sandbox.bank", verdict: "REFUSED", category: "CREDENTIAL", code: "LOGIN_FAILED" });
  });

  it("exits 0 with verdict VALID for a login the institution accepts", async () => {
    const run = await cli(["check-credential", "sandbox.bank", "--json", "--base-url", stack().baseUrl], { COLLECT_API_KEY: stack().apiKey });
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ providerCode: "sandbox.bank", verdict: "VALID", category: null });
  });
});

describe("collect schedules", () => {
  it("creates a schedule, lists, pauses and shows it as the service holds it, then deletes it", async () => {
    const env = { COLLECT_API_KEY: stack().apiKey, COLLECT_BASE_URL: stack().baseUrl };
    const made = await cli(["schedules", "create", "--provider", "sandbox.bank", "--schema", "bank.transactions.cb.v1", "--cron", "0 3 * * *", "--last-days", "7", "--incremental", "--json"], env);
    expect(made.code, made.stderr).toBe(0);
    const schedule = JSON.parse(made.stdout);
    const client = new CollectClient({ baseUrl: stack().baseUrl, apiKey: stack().apiKey });
    expect(schedule).toEqual(await client.getSchedule(schedule.id));
    expect(schedule).toMatchObject({ cron: "0 3 * * *", timeZone: "Asia/Seoul", lastDays: 7, incremental: true, status: "ACTIVE" });

    const listed = await cli(["schedules", "list"], env);
    expect(listed.stdout).toMatch(new RegExp(`${schedule.id}\\s+bank.transactions.cb.v1\\s+0 3 \\* \\* \\*\\s+ACTIVE`));
    expect((await cli(["schedules", "pause", schedule.id], env)).stdout).toMatch(/status\s+PAUSED/);
    expect(JSON.parse((await cli(["schedules", "show", schedule.id, "--json"], env)).stdout)).toMatchObject({ status: "PAUSED", nextRunAt: null });
    expect((await cli(["schedules", "runs", schedule.id, "--json"], env)).stdout.trim()).toBe("[]");
    expect((await cli(["schedules", "delete", schedule.id], env)).code).toBe(0);
    const gone = await cli(["schedules", "show", schedule.id], env);
    expect(gone.code).toBe(3);
    expect(gone.stderr).toContain("RESOURCE_NOT_FOUND");
  });

  it("refuses a cron that is not five fields with the service's code and Korean message", async () => {
    const run = await cli(["schedules", "create", "--provider", "sandbox.bank", "--schema", "bank.accounts.cb.v1", "--cron", "@daily"], { COLLECT_API_KEY: stack().apiKey, COLLECT_BASE_URL: stack().baseUrl });
    expect(run.code).toBe(3);
    expect(run.stderr).toContain("INVALID_PARAM_FORMAT");
    expect(run.stderr).toMatch(/다섯 필드/);
  });
});

describe("collect jobs and results", () => {
  it("creates and follows a job with plain progress lines off a terminal, shows it, and writes the service's CSV bytes unchanged", async () => {
    const apiKey = stack().named["cli/jobs"].apiKey;
    const env = { COLLECT_API_KEY: apiKey, COLLECT_BASE_URL: stack().baseUrl };
    const created = await cli(["jobs", "create", "--provider", "sandbox.bank", "--schema", "bank.accounts.cb.v1", "--wait", "--json"], env);
    expect(created.code, created.stderr).toBe(0);
    const job = JSON.parse(created.stdout) as { id: string; kind: string; recordCount: number };
    expect(job).toMatchObject({ kind: "Succeeded", recordCount: bankGroundTruth(GOOD_LOGIN.loginId).accounts.length });
    expect(created.stderr).toMatch(/^progress \d+\/(\d+|\?) units (PENDING|RUNNING)$/m);
    expect(created.stderr).not.toContain("\r");

    const shown = await cli(["jobs", "show", job.id], env);
    expect(shown.stdout).toMatch(/kind\s+Succeeded/);
    expect(shown.stdout).toMatch(new RegExp(`records\\s+${job.recordCount}`));

    const csv = await new Promise<Buffer>((resolve) => {
      const child = runNode(["cli/bin.mjs", "results", job.id, "--csv"], env);
      const chunks: Buffer[] = [];
      child.stdout!.on("data", (d: Buffer) => chunks.push(d));
      child.on("close", () => resolve(Buffer.concat(chunks)));
    });
    const served = Buffer.from(await (await fetch(`${stack().baseUrl}/api/v1/data-jobs/${job.id}/results.csv`, { headers: { Authorization: `Bearer ${apiKey}` } })).arrayBuffer());
    expect(csv.equals(served)).toBe(true);
    expect([...csv.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);

    // `collect results … | head`: the reader closes the pipe, here before the CLI writes, so every write meets it.
    for (const args of [["results", job.id], ["results", job.id, "--csv"], ["jobs", "show", job.id, "--json"]]) {
      const child = runNode(["cli/bin.mjs", ...args], env);
      child.stdout!.destroy();
      const closed = await finished(child);
      expect(closed.stderr, args.join(" ")).toBe("");
      expect(closed.code, args.join(" ")).toBe(0);
    }

    // A download link hands the same bytes to someone without the key, for the time asked.
    const link = await cli(["links", "create", job.id, "--expires-in", "600", "--json"], env);
    expect(link.code, link.stderr).toBe(0);
    const { url, expiresAt } = JSON.parse(link.stdout) as { url: string; expiresAt: string };
    expect(Date.parse(expiresAt) - Date.now()).toBeGreaterThan(500_000);
    const linked = await fetch(url);
    expect(linked.headers.get("Content-Disposition")).toContain(`bank.accounts.cb.v1-${job.id}.csv`);
    expect(Buffer.from(await linked.arrayBuffer()).equals(served)).toBe(true);
    expect((await cli(["links", "create", job.id, "--expires-in", "10"], env)).code).toBe(3);

    const missing = await cli(["jobs", "show", crypto.randomUUID()], env);
    expect(missing.code).toBe(3);
    expect(missing.stderr).toMatch(/^error DATA_JOB_NOT_FOUND \(404, request \S+\)/);
    expect((await cli(["jobs", "list", "--limit", "many"], env)).code).toBe(2);
  });
});

describe("collect webhooks listen", () => {
  it("prints each signed event of a real job as it arrives and deletes its endpoint on Ctrl-C", async () => {
    const apiKey = stack().named["cli/webhooks"].apiKey;
    const env = { COLLECT_API_KEY: apiKey, COLLECT_BASE_URL: stack().baseUrl };
    const child = runNode(["cli/bin.mjs", "webhooks", "listen", "--events", "data_job.succeeded,data_job.failed"], env);
    const done = finished(child);
    let stdout = "";
    let stderr = "";
    child.stdout!.on("data", (d) => (stdout += d));
    child.stderr!.on("data", (d) => (stderr += d));
    const until = async (check: () => boolean, what: string) => {
      for (const started = Date.now(); !check(); await new Promise((r) => setTimeout(r, 200))) {
        if (Date.now() - started > 90_000) throw new Error(`no ${what}; stdout: ${stdout}; stderr: ${stderr}`);
      }
    };
    await until(() => stderr.includes("Listening on"), "listening line");

    const client = new CollectClient({ baseUrl: stack().baseUrl, apiKey });
    const job = await client.runJob({ providerCode: "sandbox.bank", schema: "bank.accounts.cb.v1" });
    expect(job.kind).toBe("Succeeded");
    await until(() => stdout.includes(job.id), "event line");
    expect(stdout).toMatch(new RegExp(`data_job\\.succeeded\\s+evt_\\S+\\s+${job.id} Succeeded`));
    expect(stderr).not.toContain("refused a delivery");

    child.kill("SIGINT");
    const exit = await done;
    expect(exit.code, exit.stderr).toBe(0);
    const left = (await (await fetch(`${stack().baseUrl}/api/v1/webhook-endpoints`, { headers: { Authorization: `Bearer ${apiKey}` } })).json()) as { items: unknown[] };
    expect(left.items).toEqual([]);
  });
});

describe("collect login", () => {
  it("signs in through the console's device approval, stores the key with mode 0600, and later commands use it", async () => {
    const configHome = mkdtempSync(path.join(tmpdir(), "collect-config-"));
    const child = runNode(["cli/bin.mjs", "login", "--base-url", stack().baseUrl], { XDG_CONFIG_HOME: configHome });
    const done = finished(child);
    const prompt = await new Promise<{ url: string; userCode: string }>((resolve, reject) => {
      let seen = "";
      child.stdout!.on("data", (d) => {
        seen += d;
        const url = /Open (\S+)/.exec(seen)?.[1];
        const userCode = /approve the code (\S+)/.exec(seen)?.[1];
        if (url && userCode) resolve({ url, userCode });
      });
      child.on("close", () => reject(new Error(`login exited before printing a code: ${seen}`)));
    });
    expect(prompt.url).toBe(`${stack().baseUrl}/console/device?user_code=${encodeURIComponent(prompt.userCode)}`);

    // The person opens the printed link, signs in as the demo user and approves the code shown.
    const page = await newPage();
    await page.goto(prompt.url);
    await page.type("#email", stack().demoUser.email);
    await page.type("#password", stack().demoUser.password);
    await Promise.all([page.waitForNavigation(), page.click("main form button[type=submit]")]);
    expect(await page.$eval("#device-platform", (el) => el.textContent)).toMatch(/^linux x64, Node \d/);
    await Promise.all([page.waitForNavigation(), page.click("button[value=approve]")]);
    expect(await page.$eval("#device-decided", (el) => el.textContent)).toContain("collect CLI");

    const login = await done;
    expect(login.code, login.stderr).toBe(0);
    const file = path.join(configHome, "collect-edge", "config.json");
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(path.dirname(file)).mode & 0o777).toBe(0o700);

    // No flag or key in the environment: the stored login alone.
    const list = await cli(["jobs", "list", "--json"], { XDG_CONFIG_HOME: configHome });
    expect(list.code, list.stderr).toBe(0);
    const jobs = JSON.parse(list.stdout) as { id: string; kind: string }[];
    expect(Array.isArray(jobs)).toBe(true);
    for (const job of jobs) expect(job).toMatchObject({ id: expect.any(String), kind: expect.stringMatching(/^(InProgress|Succeeded|Failed)$/) });

    const logout = await cli(["logout"], { XDG_CONFIG_HOME: configHome });
    expect(logout.code).toBe(0);
    expect((await cli(["jobs", "list"], { XDG_CONFIG_HOME: configHome })).code).toBe(4);
  });
});
