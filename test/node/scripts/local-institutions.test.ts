import { describe, expect, it } from "vitest";
import { localInstitutionBaseUrls } from "../../../scripts/local-institutions";

const SANDBOX = "http://127.0.0.1:8790";

describe("where npm start points the real institutions", () => {
  it("at the sandbox's replicas by default, and where its own INSTITUTION_BASE_URLS says for the providers it names", () => {
    const replicas = localInstitutionBaseUrls(SANDBOX, undefined);
    expect(replicas.hometax!["hometax.go.kr"]).toMatch(/^http:\/\/127\.0\.0\.1:8790\/hometax\//);
    expect(replicas.hometax!["www.hometax.go.kr"]).toMatch(/^http:\/\/127\.0\.0\.1:8790\/hometax\//);

    // Another stand-in for Hometax; the others keep their replicas.
    const elsewhere = localInstitutionBaseUrls(SANDBOX, JSON.stringify({ hometax: { "hometax.go.kr": "https://stand-in.example/portal" } }));
    expect(elsewhere.hometax).toEqual({ "hometax.go.kr": "https://stand-in.example/portal" });
    expect(elsewhere.openbanking).toEqual(replicas.openbanking);

    // The documented value for the real portal (docs/institutions/README.md): no stand-in, so every host is the real one.
    expect(localInstitutionBaseUrls(SANDBOX, '{"hometax":{}}').hometax).toEqual({});
    expect(() => localInstitutionBaseUrls(SANDBOX, '{"hometax":{"not a host":"x"}}')).toThrow(/not a host name/);
  });
});
