import { env } from "cloudflare:workers";
import { expect } from "vitest";
import { callJson, createWorkspace, type TestWorkspace } from "./helpers";

type Json = Record<string, any>;

export const asPartner = (key: string, business?: string) => ({ key, headers: business === undefined ? new Headers() : new Headers({ "X-SVC-Business": business }) });

export async function connectBusinesses(partner: TestWorkspace, ...businesses: string[]) {
  for (const businessNumber of businesses) {
    const res = await callJson<Json>("/api/v1/connections", { method: "POST", key: partner.apiKey, json: { businessNumber } });
    expect(res.status).toBe(201);
  }
}

export async function partnerWithConnection(...businesses: string[]) {
  const partner = await createWorkspace({ isPartner: true });
  await connectBusinesses(partner, ...businesses);
  return partner;
}

/** The partner's active connection to a business, with the workspace it keeps the business's data in (which the API never shows). */
export async function connectionTo(partner: TestWorkspace, businessNumber: string): Promise<{ id: string; workspaceId: string }> {
  const { items } = (await callJson<Json>("/api/v1/connections", { key: partner.apiKey })).body;
  const { id } = items.find((c: Json) => c.businessNumber === businessNumber && c.status === "ACTIVE");
  const row = await env.DB.prepare("SELECT workspace_id FROM connections WHERE id = ?").bind(id).first<{ workspace_id: string }>();
  return { id, workspaceId: row!.workspace_id };
}

