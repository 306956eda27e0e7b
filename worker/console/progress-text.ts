/**
 * What an unfinished job is doing, in words: its holder's approval on their phone (with the time left, `now` being
 * the clock it is counted on), the institution's maintenance, its turn on the credential, or its progress. The page's
 * poller runs this very function on the job's JSON (live-progress.ts), so it refers to nothing outside itself: the
 * apps' names come in as `appNames`.
 */
export function progressText(
  job: { phase: string; completedTaskCount: number; totalTaskCount: number; queuePosition?: number; maintenanceUntil?: string; awaitingHolder?: { provider: string; until: string } },
  appNames: Record<string, string> = {},
  now = Date.now(),
): string {
  if (job.awaitingHolder) {
    const left = Math.max(0, Math.floor((Date.parse(job.awaitingHolder.until) - now) / 1000));
    const mmss = String(Math.floor(left / 60)).padStart(2, "0") + ":" + String(left % 60).padStart(2, "0");
    return "휴대폰 승인 대기 중: " + (appNames[job.awaitingHolder.provider] || job.awaitingHolder.provider) + " 앱에서 인증 요청을 승인해 주세요 (남은 시간 " + mmss + ")";
  }
  if (job.maintenanceUntil) return "기관 점검 대기 · " + new Date(job.maintenanceUntil).toLocaleString("ko-KR", { timeZone: "Asia/Seoul" }) + "까지";
  if (job.queuePosition !== undefined) return job.queuePosition === 0 ? "차례가 와 곧 시작" : "차례 대기 · 앞에 " + job.queuePosition + "건";
  return (job.phase === "PENDING" ? "대기 중" : "수집 중") + " " + job.completedTaskCount + "/" + job.totalTaskCount;
}
