import { malformed } from "./failure-text";
import { kstIso } from "../../contracts/korean-time";

/** An amount as Korean institution pages show it: "1,234,567원", "-1,234.56 USD", "5,000 JPY". */
export interface ShownAmount {
  value: number;
  /** ISO 4217; "원" is KRW. */
  currency: string;
}

/** Reads an amount back from its display form; anything else means the page is not what the adapter knows. */
export function parseAmount(text: string): ShownAmount {
  const match = /^(-?)([\d,]+(?:\.\d+)?)(?:원| ([A-Z]{3}))$/.exec(text.trim());
  if (!match) throw malformed(`unreadable amount "${text}"`);
  const value = Number(match[2]!.replace(/,/g, ""));
  // 0 rather than -0: a signed zero is not a value any institution means.
  return { value: match[1] && value !== 0 ? -value : value, currency: match[3] ?? "KRW" };
}

/** "2026.03.05 14:22:10" (Korean time) → ISO 8601 with +09:00. */
export function parseKstDateTime(text: string): string {
  const match = /^(\d{4})\.(\d{2})\.(\d{2}) (\d{2}:\d{2}:\d{2})$/.exec(text.trim());
  if (!match) throw malformed(`unreadable date "${text}"`);
  return kstIso(`${match[1]}-${match[2]}-${match[3]}T${match[4]}`);
}
