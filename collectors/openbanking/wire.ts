import { type InstitutionHttp, ProviderFailure } from "../adapter";
import { malformed } from "../kit/failure-text";

export type Json = Record<string, unknown>;

/** A JSON object answer; anything else is not an answer the adapter knows. */
export function parseAnswer(text: string, status: number, where: string): Json {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    if (status === 429) throw new ProviderFailure("RATE_LIMITED", `${where}: HTTP 429`);
    if (status >= 500) throw new ProviderFailure("PROVIDER_ERROR", `${where}: HTTP ${status}`);
    throw malformed(`${where}: HTTP ${status}, not JSON`);
  }
  if (!value || typeof value !== "object" || Array.isArray(value)) throw malformed(`${where}: HTTP ${status}, not a JSON object`);
  return value as Json;
}

/** A text field of an answer: a string, or an error naming the field. */
export function field(answer: Json, name: string, where: string): string {
  const value = answer[name];
  if (typeof value !== "string") throw malformed(`${where}: no ${name}`);
  return value;
}

export const optionalField = (answer: Json, name: string): string | null => (typeof answer[name] === "string" && answer[name] !== "" ? (answer[name] as string) : null);

/** A whole number in a string field, the spec's N(n) and SN(n) (`"-1500"`). */
export function amount(answer: Json, name: string, where: string): number {
  const raw = field(answer, name, where).trim();
  if (!/^[+-]?\d{1,15}$/.test(raw)) throw malformed(`${where}: ${name} is not a whole number`);
  return Number(raw);
}

export async function getJson(http: InstitutionHttp, url: string, accessToken: string, where: string): Promise<Json> {
  const answer = await http.fetch(url, { headers: { Authorization: `Bearer ${accessToken}`, Accept: "application/json" } });
  return parseAnswer(answer.text, answer.status, where);
}

export async function postForm(http: InstitutionHttp, url: string, form: Record<string, string>, where: string): Promise<Json> {
  const answer = await http.fetch(url, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded; charset=UTF-8", Accept: "application/json" },
    body: new URLSearchParams(form).toString(),
  });
  return parseAnswer(answer.text, answer.status, where);
}
