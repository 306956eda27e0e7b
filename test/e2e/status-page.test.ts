import { mkdirSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { client, useStackAndBrowser } from "../support/e2e/stack";

/** The public status page as a partner reads it at a desk (1280 px) and on a phone (390 px): issue 63. */
const SHOTS = path.resolve(import.meta.dirname, "screenshots");
const { stack, newPage } = useStackAndBrowser();

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  // A job of today's, through the real pipeline: its end is what today's bar of the bank counts.
  const api = client(stack(), stack().apiKey);
  expect(await api.waitForJob((await api.createJob({ providerCode: "sandbox.bank", schema: "bank.accounts.cb.v1" })).id)).toMatchObject({ kind: "Succeeded" });
});

describe("the status page in Chromium", () => {
  for (const [width, height] of [
    [1280, 800],
    [390, 844],
  ] as const) {
    it(`shows each institution's last 90 days as 90 bars on one line within the screen at ${width}x${height}, each with its words`, async () => {
      const page = await newPage({ width });
      await page.goto(`${stack().baseUrl}/status`);
      const histories = await page.$$eval("[data-history]", (sections) =>
        sections.map((section) => {
          const bars = [...section.querySelectorAll<HTMLElement>(".history-bars > li")].map((li) => ({ box: li.getBoundingClientRect(), words: li.textContent ?? "", title: li.title }));
          return { count: bars.length, rows: new Set(bars.map((b) => Math.round(b.box.bottom))).size, left: Math.min(...bars.map((b) => b.box.left)), right: Math.max(...bars.map((b) => b.box.right)), narrowest: Math.min(...bars.map((b) => b.box.width)), wordless: bars.filter((b) => !/^\d+월 \d+일: /.test(b.words) || b.words !== b.title).length };
        }),
      );
      expect(histories.length).toBeGreaterThanOrEqual(5);
      // Today's bank job, counted at its end: the last bar says so in words. Other files of the lane fail bank jobs on
      // purpose in the same stack, so the day's state is whatever the status rule makes of all of them; its words name it.
      const [state, words] = await page.$eval("[data-history='sandbox.bank'] .history-bars > li:last-child", (li): [string | null, string] => [li.getAttribute("data-state"), li.textContent ?? ""]);
      const said = /^\d+월 \d+일: (정상|일부 지연·실패|장애) \(작업 (\d+)건, 성공률 [\d.]+%\)$/.exec(words);
      expect(said, words).not.toBeNull();
      expect({ state, word: said![1], jobs: Number(said![2]) >= 1 }).toEqual({ state: { 정상: "OPERATIONAL", "일부 지연·실패": "DEGRADED", 장애: "DOWN" }[said![1]!], word: said![1], jobs: true });
      for (const h of histories) {
        // One row, bottoms aligned, inside the page: nothing wraps or scrolls sideways, and a bar is wide enough to see.
        expect(h).toMatchObject({ count: 90, rows: 1, wordless: 0 });
        expect(h.left).toBeGreaterThanOrEqual(0);
        expect(h.right).toBeLessThanOrEqual(width);
        expect(h.narrowest).toBeGreaterThanOrEqual(2);
      }
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      await page.screenshot({ path: path.join(SHOTS, `status-page-${width}.png`), fullPage: true });
    });
  }
});
