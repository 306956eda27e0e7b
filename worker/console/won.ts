/** Won as the console writes amounts: "108,900원". */
export const won = (amount: number) => `${amount.toLocaleString("ko-KR")}원`;
