import { afterAll, describe, expect, it } from "vitest";
import { clockWithOffset } from "../../sandbox/clock";
import { todayKst } from "../../sandbox/dates";
import { type SandboxServer, startSandbox } from "../../sandbox/server";
import { findProvider } from "../../worker/catalog/providers";
import { nextWindows, windowMet } from "../../worker/catalog/maintenance";
import { maintenanceMet, upcomingMaintenance } from "../../worker/catalog/provider-hours";

const MINUTE = 60_000;
/** The offset that puts the sandbox's clock at `hhmm` Korean time today. */
const offsetTo = (hhmm: string) => Date.parse(`${todayKst()}T${hhmm}:00+09:00`) - Date.now();
const at = (hhmm: string, day = todayKst()) => Date.parse(`${day}T${hhmm}:00+09:00`);

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

  it("keeps no hours for the sandbox without the shared clock, and our time for a real institution", () => {
    const bank = findProvider("sandbox.bank")!;
    expect(upcomingMaintenance({}, bank, Date.now(), 3)).toEqual([]);
    expect(maintenanceMet({}, bank, Date.now(), 0)).toBeNull();
    expect(findProvider("hometax")!.maintenance).toEqual([]);
    const offset = offsetTo("00:29");
    const met = maintenanceMet({ SANDBOX_CLOCK_OFFSET_MS: String(offset) }, bank, Date.now(), 0);
    expect(met!.endsAt + offset).toBe(at("00:30"));
  });
});

describe("the sandbox's hours and the service's calendar", () => {
  const sandboxes: SandboxServer[] = [];
  afterAll(() => Promise.all(sandboxes.map((s) => s.close())));

  /** Each sandbox site's login answer at a Korean time, beside what the service's calendar says of that time. */
  async function both(providerCode: string, hhmm: string) {
    const offset = offsetTo(hhmm);
    const sandbox = await startSandbox({ port: 0, clock: clockWithOffset(offset) });
    sandboxes.push(sandbox);
    const site = providerCode === "sandbox.bank" ? { path: "bank/api/login", body: { userId: "user_good", userPw: "pass_good" } } : { path: "card/api/login", body: { custId: "user_good", custPw: "pass_good" } };
    const answer = await (await fetch(`${sandbox.url}/${site.path}`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(site.body) })).json();
    const closed = answer.next === "notice?type=maintenance";
    const calendar = maintenanceMet({ SANDBOX_CLOCK_OFFSET_MS: String(offset) }, findProvider(providerCode)!, Date.now(), 0) !== null;
    return { closed, calendar };
  }

  it.each([
    ["sandbox.bank", "00:10", true],
    ["sandbox.bank", "00:31", false],
    ["sandbox.card", "23:55", true],
    ["sandbox.card", "00:05", true],
    ["sandbox.card", "00:11", false],
  ])("%s at %s KST: closed %s, by its site and by the calendar alike", async (providerCode, hhmm, closed) => {
    expect(await both(providerCode, hhmm)).toEqual({ closed, calendar: closed });
  });
});
