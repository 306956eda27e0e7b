/**
 * The media type of a unit's object whose JSON lines each end with a comma (`{...},\n`): laid end to end they are
 * the items of the results document's array, so the JSON export pipes them as stored, as the CSV export pipes rows.
 * Objects stored before it (no such type) hold bare lines, which the export still rewrites byte by byte.
 */
export const ARRAY_ITEM_LINES = "application/vnd.collect.unit-results; lines=array-items";

/** A record as a stored JSON line of ARRAY_ITEM_LINES. */
export const arrayItemLine = (record: Record<string, unknown>): string => `${JSON.stringify(record)},\n`;

/** A stored JSON line, of either layout, as its record's JSON: an array item's comma dropped (a JSON object never ends with one). */
export const recordJson = (line: string): string => (line.endsWith(",") ? line.slice(0, -1) : line);
