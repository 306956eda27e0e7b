import { DAY_MS } from "../contracts/korean-time";

export const toDay = (iso: string) => Math.floor(Date.parse(`${iso}T00:00:00Z`) / DAY_MS);
export const fromDay = (day: number) => new Date(day * DAY_MS).toISOString().slice(0, 10);
