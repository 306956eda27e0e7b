import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { kstDate } from "../../../contracts/korean-time";
import { type SandboxServer, startSandbox } from "../../../sandbox/server";
import { findProvider } from "../../../worker/domain/catalog/providers";
import { nextWindows, windowMet } from "../../../worker/domain/catalog/maintenance";
import { maintenanceAt, providerClocks, upcomingMaintenance } from "../../../worker/domain/catalog/provider-hours";

const MINUTE = 60_000;
const at = (hhmm: string, day = kstDate()) => Date.parse(`${day}T${hhmm}:00+09:00`);

describe("a provider's maintenance calendar", () => {
  const card = [{ from: "23:50", to: "00:10", note: "card" }];

  it("finds the next windows, one running past midnight included, in Korean days", () => {
    const windows = nextWindows(card, at("23:55"), 2);
    expect(windows.map((w) => [w.startsAt, w.endsAt])).toEqual([
      [at("23:50"), at("23:50") + 20 * MINUTE],
      [at("23:50") + 86_400_000, at("23:50") + 86_400_000 + 20 * MINUTE],
    ]);
  });

  it("says a run meets a window open now or opening before it would end, and merges windows back to back", () => {
    expect(windowMet(card, at("23:40"), 5 * MINUTE)).toBeNull();
    expect(windowMet(card, at("23:46"), 5 * MINUTE)).toMatchObject({ startsAt: at("23:50") });
    expect(windowMet(card, at("23:59"), 0)).toMatchObject({ endsAt: at("23:50") + 20 * MINUTE });
    const split = [{ from: "01:00", to: "02:00", note: "a" }, { from: "02:00", to: "03:00", note: "b" }];
    expect(windowMet(split, at("01:30"), 0)).toMatchObject({ endsAt: at("03:00") });
  });

  it("opens a month-end window on the last day of a month only, past midnight into the 1st", () => {
    const batch = [{ from: "23:00", to: "01:00", on: "monthEnd" as const, note: "batch" }];
    expect(windowMet(batch, at("23:30", "2026-01-30"), 0)).toBeNull();
    expect(windowMet(batch, at("23:30", "2026-01-31"), 0)).toMatchObject({ startsAt: at("23:00", "2026-01-31"), endsAt: at("01:00", "2026-02-01") });
    expect(windowMet(batch, at("00:30", "2026-02-01"), 0)).toMatchObject({ endsAt: at("01:00", "2026-02-01") });
    expect(windowMet(batch, at("00:30", "2026-02-02"), 0)).toBeNull();
    expect(nextWindows(batch, at("12:00", "2026-02-27"), 1)).toEqual([{ startsAt: at("23:00", "2026-02-28"), endsAt: at("01:00", "2026-03-01"), note: "batch" }]);
  });

  it("keeps our time for a real institution, which publishes no hours here", async () => {
    const hometax = findProvider("hometax")!;
    expect(await providerClocks({ SANDBOX_BASE_URL: "http://127.0.0.1:9" })(hometax)).toBe(0);
    expect(upcomingMaintenance(hometax, Date.now(), 3, 0)).toEqual([]);
  });
});

describe("the sandbox's hours and the service's calendar", () => {
  let sandbox: SandboxServer;
  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0 });
  });
  afterAll(() => sandbox.close());

  const setClock = (hhmm: string, day = kstDate()) =>
    fetch(`${sandbox.url}/sandbox/clock`, { method: "PUT", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ at: `${day}T${hhmm}:00+09:00` }) });

  /** A sandbox site's login answer now, beside what the service's calendar, reading the sandbox's clock over HTTP, says of now. */
  async function both(providerCode: string) {
    const site = providerCode === "sandbox.bank" ? { path: "bank/api/login", body: { userId: "user_good", userPw: "pass_good" } } : { path: "card/api/login", body: { custId: "user_good", custPw: "pass_good" } };
    const answer = await (await fetch(`${sandbox.url}/${site.path}`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(site.body) })).json();
    const provider = findProvider(providerCode)!;
    const offset = await providerClocks({ SANDBOX_BASE_URL: sandbox.url })(provider);
    return { closed: answer.next === "notice?type=maintenance", calendar: maintenanceAt(provider, Date.now(), 0, offset) !== null };
  }

  it("keeps no hours until its clock is set, and none once it is cleared", async () => {
    const bank = findProvider("sandbox.bank")!;
    expect(await providerClocks({ SANDBOX_BASE_URL: sandbox.url })(bank)).toBeNull();
    expect(upcomingMaintenance(bank, Date.now(), 3, null)).toEqual([]);
    await setClock("00:10");
    expect(await both("sandbox.bank")).toEqual({ closed: true, calendar: true });
    await fetch(`${sandbox.url}/sandbox/clock`, { method: "DELETE" });
    expect(await both("sandbox.bank")).toEqual({ closed: false, calendar: false });
  });

  it.each([
    ["sandbox.bank", "00:10", "2026-03-10", true],
    ["sandbox.bank", "00:31", "2026-03-10", false],
    ["sandbox.card", "23:55", "2026-03-10", true],
    ["sandbox.card", "00:05", "2026-03-10", true],
    ["sandbox.card", "00:11", "2026-03-10", false],
    // The issuer's month-end batch: the last day's evening and the 1st's first hour, and no other day's.
    ["sandbox.card", "23:30", "2026-03-30", false],
    ["sandbox.card", "23:30", "2026-03-31", true],
    ["sandbox.card", "00:30", "2026-04-01", true],
    ["sandbox.card", "01:01", "2026-04-01", false],
  ])("%s at %s KST on %s: closed %s, by its site and by the calendar alike", async (providerCode, hhmm, day, closed) => {
    await setClock(hhmm, day);
    expect(await both(providerCode)).toEqual({ closed, calendar: closed });
  });
});
