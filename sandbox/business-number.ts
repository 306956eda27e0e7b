/** A business number as Korean sites show it: "120-88-00767". */
export function shownBusinessNumber(digits: string): string {
  return `${digits.slice(0, 3)}-${digits.slice(3, 5)}-${digits.slice(5)}`;
}
