import { describe, expect, it } from "vitest";
import { MAX_ERROR_TEXT, MAX_FIELD_ERRORS } from "../../../../worker/platform/errors/api-error";
import { MAX } from "../../../../worker/platform/http/bounds";
import { callJson, createWorkspace } from "../../../support/workers/helpers";

type Validation = { code: string; message: string; fieldErrors: { field: string; code: string; message: string }[] };

/** The limits the document states (docs/security.md, "The contract says its limits") are what the routes enforce. */
describe("bounded input", () => {
  it("answers a value past its bound with 400 INVALID_PARAM_FORMAT and a Korean message naming the bound", async () => {
    const ws = await createWorkspace();
    const longId = await callJson<Validation>(`/api/v1/data-jobs/${"a".repeat(MAX.id + 1)}`, { key: ws.apiKey });
    expect(longId.status).toBe(400);
    expect(longId.body.fieldErrors).toEqual([{ field: "path.id", code: "INVALID_PARAM_FORMAT", message: `${MAX.id}자 이하여야 합니다.` }]);

    const longCode = await callJson<Validation>("/api/v1/data-jobs", { method: "POST", key: ws.apiKey, json: { providerCode: "x".repeat(MAX.code + 1), schema: "bank.accounts.cb.v1" } });
    expect(longCode.status).toBe(400);
    expect(longCode.body.fieldErrors).toEqual([{ field: "body.providerCode", code: "INVALID_PARAM_FORMAT", message: `${MAX.code}자 이하여야 합니다.` }]);

    const longCursor = await callJson<Validation>(`/api/v1/data-jobs?cursor=${"c".repeat(MAX.cursor + 1)}`, { key: ws.apiKey });
    expect(longCursor.status).toBe(400);
    expect(longCursor.body.fieldErrors[0]).toMatchObject({ field: "query.cursor", code: "INVALID_PARAM_FORMAT" });

    const tooManyStatuses = await callJson<Validation>("/api/v1/data-jobs?status=PENDING,RUNNING,SUCCEEDED,FAILED,PENDING", { key: ws.apiKey });
    expect(tooManyStatuses.status).toBe(400);
    expect(tooManyStatuses.body.fieldErrors).toEqual([{ field: "query.status", code: "INVALID_PARAM_FORMAT", message: "4개 이하여야 합니다." }]);
  });

  it("keeps the error envelope itself within its stated bounds", async () => {
    const ws = await createWorkspace();
    // Unknown job params with a very long name: the message names them, and is cut.
    const params = Object.fromEntries(Array.from({ length: 3 }, (_, i) => [`${i}${"k".repeat(2000)}`, 1]));
    const res = await callJson<Validation>("/api/v1/data-jobs", { method: "POST", key: ws.apiKey, json: { providerCode: "sandbox.bank", schema: "bank.accounts.cb.v1", params } });
    expect(res.status).toBe(400);
    expect(res.body.fieldErrors.length).toBeGreaterThan(0);
    expect(res.body.fieldErrors.length).toBeLessThanOrEqual(MAX_FIELD_ERRORS);
    for (const entry of res.body.fieldErrors) {
      expect(entry.field.length).toBeLessThanOrEqual(MAX_ERROR_TEXT);
      expect(entry.message.length).toBeLessThanOrEqual(MAX_ERROR_TEXT);
    }
  });
});
