import { describe, expect, it } from "vitest";
import { kstDate } from "../../../contracts/korean-time";
import { ConsoleBrowser } from "../../support/workers/console-browser";
import { bankTransaction, callJson, jobInWorkspace } from "../../support/workers/helpers";
import { env } from "cloudflare:workers";
import { issueApiKey } from "../../../worker/domain/api-keys/store";

type Json = Record<string, any>;

describe("the console overview", () => {
  it("counts today's jobs by outcome and the records they collected, each institution's success rate, the month's usage, and the latest failure with what to do", async () => {
    const owner = new ConsoleBrowser();
    const { workspaceId } = await owner.signUp();
    await jobInWorkspace(workspaceId, [[bankTransaction("a", "급여", 1000), bankTransaction("b", "카드대금", -500)]], [0]);
    await jobInWorkspace(workspaceId, [[bankTransaction("c", "이자", 10)]], [0]);
    const key = (await issueApiKey(env.DB, { workspaceId, name: "개요" })).secret;
    const failed = await callJson<Json>("/api/v1/data-jobs", { method: "POST", key, json: { providerCode: "sandbox.card", schema: "card.cards.corp.v1" } });
    expect(failed.body.kind).toBe("Failed");

    const page = await owner.open(`/console/w/${workspaceId}/overview`);
    expect(page.status).toBe(200);
    const today = new RegExp(`<tr data-day="${kstDate(Date.now())}"><td>[^<]*</td><td data-succeeded="true">(\\d+)</td><td data-failed="true">(\\d+)</td><td>\\d+</td><td data-records="true">(\\d+)</td>`).exec(page.html);
    expect(today?.slice(1)).toEqual(["2", "1", "3"]);
    expect(page.html).toMatch(/data-provider="sandbox.bank">.*?<td data-rate="true">100%<\/td>/s);
    expect(page.html).toMatch(/data-provider="sandbox.card">.*?<td data-rate="true">0%<\/td>/s);
    expect(page.html).toContain(`id="usage-jobs">3 / 300<`);
    expect(page.html).toContain(`data-code="${failed.body.error.code}"`);
    expect(page.html).toContain("다음 할 일:");
    // The charts' data beside them, and uPlot from the worker under the page's script nonce.
    const data = JSON.parse(/<script type="application\/json" id="overview-data">([^<]*)<\/script>/.exec(page.html)![1]!);
    expect(data.succeeded.at(-1)).toBe(2);
    expect(data.records.at(-1)).toBe(3);
    const nonce = /script-src 'nonce-([^']+)'/.exec(page.response.headers.get("Content-Security-Policy")!)![1];
    expect(page.html).toContain(`<script nonce="${nonce}" src="/console/assets/uplot.js">`);
    const uplot = await owner.request("/console/assets/uplot.js");
    expect(uplot.headers.get("Content-Type")).toContain("javascript");
    expect(await uplot.text()).toContain("uPlot");
  });
});
