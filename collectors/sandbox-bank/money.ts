import { malformed } from "../failure-text";

/** "1,234,567원", "-1,234.56 USD" → signed number; anything else means the page is not what we know. */
export function parseMoney(text: string): number {
  const match = /^(-?)([\d,]+(?:\.\d+)?)(?:원| [A-Z]{3})$/.exec(text.trim());
  if (!match) throw malformed(`unreadable amount "${text}"`);
  const value = Number(match[2]!.replace(/,/g, ""));
  return match[1] ? -value : value;
}

/** "2026.03.05 14:22:10" (Korean time) → ISO 8601 with +09:00. */
export function parseKstDateTime(text: string): string {
  const match = /^(\d{4})\.(\d{2})\.(\d{2}) (\d{2}:\d{2}:\d{2})$/.exec(text.trim());
  if (!match) throw malformed(`unreadable date "${text}"`);
  return `${match[1]}-${match[2]}-${match[3]}T${match[4]}+09:00`;
}
