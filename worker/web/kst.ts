/** A moment as the console shows it: Korean date and time, whatever zone the worker runs in. */
export const kst = (ms: number) => new Date(ms).toLocaleString("ko-KR", { timeZone: "Asia/Seoul" });
