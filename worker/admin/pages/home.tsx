import type { Context } from "hono";
import { actorOf, type AdminPagesEnv } from "../context";
import { ApiError } from "../../platform/errors/api-error";
import { MAX } from "../../platform/http/bounds";
import { type SearchMatch, searchTargets } from "../../domain/operators/actions";
import { DataTable } from "../../web/layout";
import { AdminPage } from "./layout";

const KIND_NAMES: Record<SearchMatch["kind"], string> = { workspace: "워크스페이스", job: "작업", credential: "인증정보", connection: "파트너 연결" };

/** The console's home: one box that finds a workspace, partner, job, credential or connection by id, business number, company name or owner's e-mail. */
export async function showSearch(c: Context<AdminPagesEnv>): Promise<Response> {
  const q = (c.req.query("q") ?? "").trim();
  let matches: SearchMatch[] | null = null;
  let error: ApiError | undefined;
  if (q.length > MAX.id) error = new ApiError("INVALID_PARAM_FORMAT", { message: `검색어는 ${MAX.id}자 이하로 입력해 주세요.` });
  else if (q) matches = await searchTargets(c.env, actorOf(c), q);
  return c.html(
    <AdminPage c={c} title="찾기" error={error}>
      <form method="get" action="/admin" role="search">
        <label for="q">id, 사업자등록번호, 회사 이름 또는 소유자 이메일</label>
        <input id="q" name="q" value={q} maxlength={MAX.id} required />
        <button type="submit">찾기</button>
      </form>
      {matches && matches.length === 0 && <p role="status">찾은 것이 없습니다.</p>}
      {matches && matches.length > 0 && (
        <DataTable stacked columns={["종류", "id", "워크스페이스", "소유자", "사업자등록번호", "상태"]}>
          {matches.map((m) => (
            <tr data-kind={m.kind}>
              <td>{KIND_NAMES[m.kind]}</td>
              <td>{m.kind === "job" ? <a href={`/admin/jobs/${m.id}`}><code>{m.id}</code></a> : <code>{m.id}</code>}</td>
              <td>{m.workspace ? <a href={`/admin/workspaces/${m.workspace.id}`}>{m.workspace.name}{m.workspace.isPartner ? " (파트너)" : ""}</a> : "-"}</td>
              <td data-field="owner">{m.ownerEmail ?? "-"}</td>
              <td>{m.workspace?.businessNumber ?? "-"}</td>
              <td>{m.workspace?.suspendedAt ? "정지" : "이용 중"}</td>
            </tr>
          ))}
        </DataTable>
      )}
    </AdminPage>,
    (error?.status ?? 200) as 200,
  );
}
