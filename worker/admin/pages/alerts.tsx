import type { Context } from "hono";
import { latestAlerts } from "../../domain/alerts/store";
import { type AdminPagesEnv, operatorOf } from "../context";
import { assertOperatorMay } from "../../domain/operators/permissions";
import { kst } from "../../web/kst";
import { ALERTS_SHOWN } from "../api/alerts";
import { DataTable } from "../../web/layout";
import { AdminPage } from "./layout";

/** Alerts on the flagged codes, open ones first. */
export async function showAlerts(c: Context<AdminPagesEnv>): Promise<Response> {
  assertOperatorMay(operatorOf(c).role, "alerts.read");
  const alerts = await latestAlerts(c.env.DB, ALERTS_SHOWN);
  return c.html(
    <AdminPage c={c} title="운영 알림">
      {alerts.length === 0 && <p role="status">알림이 없습니다.</p>}
      <DataTable columns={["상태", "코드", "기관", "발생", "열림", "예"]}>
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
      </DataTable>
    </AdminPage>,
  );
}
