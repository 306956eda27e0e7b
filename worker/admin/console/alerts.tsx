import type { Context } from "hono";
import { latestAlerts } from "../../alerts/store";
import type { AppEnv } from "../../env";
import { assertOperatorMay } from "../../operators/permissions";
import { kst } from "../../console/kst";
import { ALERTS_SHOWN } from "../routes/alerts";
import { AdminPage } from "./layout";

/** Alerts on the flagged codes, open ones first. */
export async function showAlerts(c: Context<AppEnv>): Promise<Response> {
  assertOperatorMay(c.get("operator")!.role, "alerts.read");
  const alerts = await latestAlerts(c.env.DB, ALERTS_SHOWN);
  return c.html(
    <AdminPage c={c} title="운영 알림">
      {alerts.length === 0 && <p role="status">알림이 없습니다.</p>}
      <div class="table">
        <table>
          <thead>
            <tr>
              <th scope="col">상태</th>
              <th scope="col">코드</th>
              <th scope="col">기관</th>
              <th scope="col">발생</th>
              <th scope="col">열림</th>
              <th scope="col">예</th>
            </tr>
          </thead>
          <tbody>
            {alerts.map((a) => (
              <tr data-alert={a.id} data-state={a.resolvedAt ? "resolved" : "open"}>
                <td>{a.resolvedAt ? `해소 (${kst(a.resolvedAt)})` : "열림"}</td>
                <td>{a.code}</td>
                <td>{a.providerCode}</td>
                <td>
                  {a.occurrences}회 (기준 {a.windowMs / 60_000}분에 {a.threshold}회)
                </td>
                <td>{kst(a.openedAt)}</td>
                <td>
                  <code>{a.example}</code>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </AdminPage>,
  );
}
