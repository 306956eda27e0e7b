import { describe, expect, it } from "vitest";
import { ConsoleBrowser } from "../../support/workers/console-browser";
import { bankTransaction, jobInWorkspace, receivedAtLeast, receiverHook } from "../../support/workers/helpers";

describe("webhooks in the console", () => {
  it("adds an endpoint showing its secret once, logs each delivery with its answer and timing, sends one again, rotates the secret and deletes the endpoint", async () => {
    const owner = new ConsoleBrowser();
    const { workspaceId } = await owner.signUp();
    const page = `/console/w/${workspaceId}/webhooks`;
    const hook = receiverHook();
    await owner.open(page);
    const added = await owner.request(page, {
      method: "POST",
      form: undefined,
      headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: owner.origin },
      body: new URLSearchParams([["_csrf", owner.csrf()], ["url", hook.url], ["events", "data_job.succeeded"], ["events", "data_job.failed"]]),
    });
    const addedHtml = await added.text();
    expect(added.status, addedHtml.slice(0, 500)).toBe(200);
    const secret = /id="webhook-secret">([^<]+)</.exec(addedHtml)![1]!;
    expect(secret).toMatch(/^whsec_/);
    const endpointId = /data-endpoint-id="([0-9a-f-]+)"/.exec(addedHtml)![1]!;
    expect(addedHtml).toContain("data_job.succeeded, data_job.failed");
    expect((await owner.open(page)).html).not.toContain(secret);

    await jobInWorkspace(workspaceId, [[bankTransaction("a", "급여", 1000)]], [0]);
    const [first] = await receivedAtLeast(hook, 1);
    expect(JSON.parse(first!.body).type).toBe("data_job.succeeded");

    const log = await owner.open(`${page}/${endpointId}`);
    expect(log.html).toMatch(/data-status="SUCCEEDED"/);
    expect(log.html).toMatch(/data-response="200">[^<]*200 · \d+ms/);
    const deliveryId = /data-delivery-id="([0-9a-f-]+)"/.exec(log.html)![1]!;
    const replayed = await owner.post(`${page}/${endpointId}/deliveries/${deliveryId}/replay`, {});
    expect(replayed.html).toContain("data_job.succeeded 이벤트를 다시 보냅니다");
    const both = await receivedAtLeast(hook, 2);
    expect(JSON.parse(both[1]!.body).id).toBe(JSON.parse(both[0]!.body).id);

    const rotated = await owner.post(`${page}/${endpointId}/rotate-secret`, {});
    const newSecret = /id="webhook-secret">([^<]+)</.exec(rotated.html)![1]!;
    expect(newSecret).toMatch(/^whsec_/);
    expect(newSecret).not.toBe(secret);

    await owner.open(page);
    const deleted = await owner.post(`${page}/${endpointId}/delete`, {});
    expect(deleted.html).toContain("엔드포인트를 삭제했습니다");
    expect(deleted.html).not.toContain(`data-endpoint-id="${endpointId}"`);
  });
});
