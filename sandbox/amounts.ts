/** Decimal places each currency is shown and settled with; two for any not listed. */
export const MINOR_DIGITS: Record<string, number> = { KRW: 0, JPY: 0 };

const digitsOf = (currency: string) => MINOR_DIGITS[currency] ?? 2;

/** Rounds to what the currency can hold: whole won and yen, cents otherwise. */
export function inCurrency(currency: string, value: number): number {
  const scale = 10 ** digitsOf(currency);
  return Math.round(value * scale) / scale;
}

/** An amount as Korean sites show it: "-1,234원", "1,234.50 USD", "5,000 JPY". */
export function showAmount(amount: number, currency: string): string {
  const digits = digitsOf(currency);
  const sign = amount < 0 ? "-" : "";
  if (currency === "KRW") return `${sign}${Math.abs(amount).toLocaleString("ko-KR")}원`;
  return `${sign}${Math.abs(amount).toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits })} ${currency}`;
}
