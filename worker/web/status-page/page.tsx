import type { Context } from "hono";
import { providerHistory } from "../../domain/catalog/history";
import { liveProviders } from "../../domain/catalog/live";
import { HISTORY_DAYS } from "../../domain/catalog/provider-days";
import { allProviders } from "../../domain/catalog/providers";
import type { ProviderState } from "../../domain/catalog/status";
import { kst } from "../kst";
import { DataTable, Page } from "../layout";
import { HistoryLegend, ProviderHistory } from "./history";
import type { PulseWindow } from "../../domain/catalog/provider-pulse";
import type { AppEnv } from "../../platform/http/app-env";

export const STATUS_PAGE_PATH = "/status";

const STATE_NAMES: Record<ProviderState, string> = { OPERATIONAL: "정상", DEGRADED: "일부 지연·실패", DOWN: "장애", MAINTENANCE: "점검 중" };

const percent = (w: PulseWindow) => (w.successRate === null ? "-" : `${Math.round(w.successRate * 1000) / 10}%`);
const seconds = (w: PulseWindow) => (w.medianDurationMs === null ? "-" : `${Math.round(w.medianDurationMs / 1000)}초 이하`);

/**
 * The public status page: each institution's state from its jobs of the last hour and day and its next maintenance,
 * as partners know institution status from other services. Anyone may read it; it shows no workspace's data.
 */
export async function showStatusPage(c: Context<AppEnv>): Promise<Response> {
  const providers = allProviders();
  // A cache may serve the page for up to a minute: the reader sees how old what they read is.
  const renderedAt = Date.now();
  const [live, history] = await Promise.all([liveProviders(c.env, providers, renderedAt), providerHistory(c.env.DB, providers.map((p) => p.code), renderedAt)]);
  return c.html(
    <Page product="데이터 수집 서비스" title="기관별 상태">
      <p>
        마지막 업데이트: <time datetime={new Date(renderedAt).toISOString()}>{kst(renderedAt)}</time> (한국 시간)
      </p>
      <DataTable columns={["기관", "상태", "성공률 (1시간 · 24시간)", "작업 시간 중앙값 (1시간)", "다음 점검"]}>
        {providers.map((p) => {
          const { status, maintenance } = live.get(p.code)!;
          const next = maintenance[0];
          return (
            <tr data-provider={p.code} data-state={status.state}>
              <td>{p.name}</td>
              <td>{STATE_NAMES[status.state]}</td>
              <td>
                {percent(status.lastHour)} · {percent(status.lastDay)}
              </td>
              <td>{seconds(status.lastHour)}</td>
              <td>{next ? `${kst(next.startsAt)} ~ ${kst(next.endsAt)} ${next.note}` : "-"}</td>
            </tr>
          );
        })}
      </DataTable>
      <p>
        성공률은 기관이나 서비스 쪽 원인으로 끝난 작업만 셉니다. 같은 내용을 API의 <code>GET /api/v1/providers</code> 응답 <code>status</code>로도 볼 수 있습니다.
      </p>
      <h2>최근 {HISTORY_DAYS}일 기록</h2>
      <p>하루에 막대 하나, 왼쪽이 가장 오래된 날입니다. 하루의 상태는 그날 끝난 작업에 위와 같은 기준을 적용하고, 공지된 장애·점검이 있던 날은 공지로 표시합니다.</p>
      <HistoryLegend />
      {providers.map((p) => {
        const { days, incidents } = history.get(p.code)!;
        return <ProviderHistory code={p.code} name={p.name} days={days} incidents={incidents} />;
      })}
    </Page>,
    200,
    { "Cache-Control": "public, max-age=60", "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'" },
  );
}
