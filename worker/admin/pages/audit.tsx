import type { Context } from "hono";
import { type AdminPagesEnv, operatorOf } from "../context";
import { MAX } from "../../platform/http/bounds";
import { auditLines } from "../../domain/operators/audit";
import { assertOperatorMay } from "../../domain/operators/permissions";
import { kst } from "../../web/kst";
import { DataTable } from "../../web/layout";
import { AdminPage } from "./layout";

const PAGE = 100;

/** The audit log newest first, of one target when `targetId` is given; `before` pages back past a line id. */
export async function showAudit(c: Context<AdminPagesEnv>): Promise<Response> {
  assertOperatorMay(operatorOf(c).role, "audit.read");
  const targetId = (c.req.query("targetId") ?? "").slice(0, MAX.id) || undefined;
  const before = /^\d{1,15}$/.test(c.req.query("before") ?? "") ? c.req.query("before")! : undefined;
  const lines = await auditLines(c.env.DB, { targetId, after: before ? { id: before, createdAt: 0 } : undefined, limit: PAGE });
  const shown = lines.slice(0, PAGE);
  const older = lines.length > PAGE ? `/admin/audit?${new URLSearchParams({ ...(targetId ? { targetId } : {}), before: shown.at(-1)!.id })}` : null;
  return c.html(
    <AdminPage c={c} title="감사 기록">
      <form method="get" action="/admin/audit">
        <label for="targetId">대상 id로 좁히기</label>
        <input id="targetId" name="targetId" value={targetId ?? ""} maxlength={MAX.id} />
        <button type="submit">보기</button>
      </form>
      <DataTable columns={["때", "운영자", "작업", "대상", "사유"]}>
        {shown.map((l) => (
          <tr data-action={l.action}>
            <td>{kst(l.createdAt)}</td>
            <td>{l.operatorEmail}</td>
            <td>{l.action}</td>
            <td>
              {l.targetKind} <code>{l.targetId}</code>
            </td>
            <td>{l.reason ?? "-"}</td>
          </tr>
        ))}
      </DataTable>
      {older && <a href={older}>이전 기록</a>}
    </AdminPage>,
  );
}
