import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";

/**
 * The origin the committed copy is fetched from: the document names the server
 * that served it, and the local stack listens here by default.
 */
const LOCAL_ORIGIN = "http://localhost:8787";

describe("the typed client's OpenAPI document", () => {
  it("is exactly what the app serves now (npm run client:generate rewrites it)", async () => {
    const response = await exports.default.fetch(new Request(`${LOCAL_ORIGIN}/api/v1/openapi.json`));
    expect(response.status).toBe(200);
    const served = `${JSON.stringify(await response.json(), null, 2)}\n`;
    await expect(served).toMatchFileSnapshot("../../../client/openapi.json");
  });
});
