const WEIGHTS = [1, 3, 7, 1, 3, 7, 1, 3, 5];

/** The check digit rule of Korean business registration numbers (사업자등록번호): the service, the sandbox and clients apply the same. */
export function isValidBusinessNumber(digits: string): boolean {
  if (!/^\d{10}$/.test(digits)) return false;
  const d = [...digits].map(Number);
  let sum = WEIGHTS.reduce((acc, w, i) => acc + w * d[i]!, 0);
  sum += Math.floor((d[8]! * 5) / 10);
  return (10 - (sum % 10)) % 10 === d[9];
}

/** The valid business number that nine leading digits make: the one check digit the rule accepts. */
export function withCheckDigit(nine: string): string {
  return [..."0123456789"].map((d) => nine + d).find(isValidBusinessNumber)!;
}

/** A business number as Korean sites and our pages show it: "120-88-00767". */
export function shownBusinessNumber(digits: string): string {
  return `${digits.slice(0, 3)}-${digits.slice(3, 5)}-${digits.slice(5)}`;
}
