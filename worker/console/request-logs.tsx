import { listApiKeys } from "../domain/api-keys/store";
import { METHODS, requestLogFilter, RequestLogQuerySchema } from "../domain/request-logs/inputs";
import { requestLogPage } from "../domain/request-logs/page";
import { omittedOn, workspaceRequestLog } from "../domain/request-logs/store";
import { kstDate, kstIso } from "../../contracts/korean-time";
import type { RequestLogRow } from "../domain/request-logs/tables";
import { type ConsoleContext, consoleUserOf, workspaceRoleOf } from "./context";
import { ApiError } from "../platform/errors/api-error";
import { MAX } from "../platform/http/bounds";
import { toFieldErrors, validationError } from "../platform/http/validation-hook";
import { kst } from "../web/kst";
import { DataTable, ErrorAlert, Page } from "../web/layout";
import { WorkspaceNav } from "./workspace-nav";

const PAGE_SIZE = 50;
const FILTERS = ["status", "errorCode", "keyId", "method", "path", "from", "to"] as const;
/** What a datetime-local field sends: a Korean wall-clock time without its offset. */
const WALL_CLOCK = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/;

/** The filter form's values as the API's query takes them: empty fields dropped, the form's times read as KST. */
function formQuery(query: Record<string, string>): Record<string, string> {
  const filled = Object.entries(query).filter(([, value]) => value !== "");
  return Object.fromEntries(filled.map(([name, value]) => [name, (name === "from" || name === "to") && WALL_CLOCK.test(value) ? kstIso(`${value}:00`) : value]));
}

/** The list's query checked by the API's own schema, so the page refuses what the API refuses, with the same codes. */
function checkedQuery(query: Record<string, string>) {
  const input = { ...formQuery(query), limit: String(PAGE_SIZE) };
  const parsed = RequestLogQuerySchema.safeParse(input);
  if (!parsed.success) throw validationError(toFieldErrors(parsed.error, input, "query"));
  return { query: parsed.data, filter: requestLogFilter(parsed.data) };
}

const Status = (props: { row: RequestLogRow }) => (
  <span data-status={props.row.status}>
    {props.row.status}
    {props.row.repeatCount > 1 ? ` × ${props.row.repeatCount.toLocaleString("ko-KR")}회 (이 분 동안)` : ""}
  </span>
);

function FilterForm(props: { action: string; shown: Record<string, string>; keys: { id: string; name: string; prefix: string }[] }) {
  const value = (name: string) => props.shown[name] ?? "";
  return (
    <form method="get" action={props.action}>
      <label for="status">상태 (예: 4xx,500)</label>
      <input id="status" name="status" maxlength={40} value={value("status")} />
      <label for="errorCode">오류 코드</label>
      <input id="errorCode" name="errorCode" maxlength={64} value={value("errorCode")} />
      <label for="keyId">API 키</label>
      <select id="keyId" name="keyId">
        <option value="">전체</option>
        {props.keys.map((key) => (
          <option value={key.id} selected={key.id === value("keyId")}>
            {key.name} ({key.prefix}…)
          </option>
        ))}
      </select>
      <label for="method">메서드</label>
      <select id="method" name="method">
        <option value="">전체</option>
        {METHODS.map((m) => (
          <option value={m} selected={m === value("method")}>
            {m}
          </option>
        ))}
      </select>
      <label for="path">경로 (앞부분 일치)</label>
      <input id="path" name="path" maxlength={512} value={value("path")} placeholder="/api/v1/data-jobs" />
      <label for="from">시작 (한국 시간)</label>
      <input id="from" name="from" type="datetime-local" value={value("from")} />
      <label for="to">끝 (한국 시간, 제외)</label>
      <input id="to" name="to" type="datetime-local" value={value("to")} />
      <button type="submit">거르기</button>
    </form>
  );
}

/** The Logs page: the workspace's API requests, newest first, with the API's filters and its cursor paging. */
export async function showRequestLogs(c: ConsoleContext<"workspaceId">): Promise<Response> {
  const user = consoleUserOf(c);
  const workspaceId = c.req.valid("param").workspaceId;
  const base = `/console/w/${workspaceId}/logs`;
  const asked = c.req.query();
  const requestId = asked.requestId?.trim();
  if (requestId) return c.redirect(`${base}/${encodeURIComponent(requestId.slice(0, MAX.id))}`, 303);
  // Echoed into the form as given; the schema, not a silent cut, refuses what is too long.
  const shown = Object.fromEntries(FILTERS.filter((name) => asked[name]).map((name) => [name, asked[name]!]));
  let page: { items: RequestLogRow[]; nextCursor: string | null } = { items: [], nextCursor: null };
  let error: ApiError | undefined;
  try {
    const { query, filter } = checkedQuery({ ...shown, ...(asked.cursor ? { cursor: asked.cursor } : {}) });
    page = await requestLogPage(c.env.DB, c.env.CURSOR_SECRET, workspaceId, filter, query, (row) => row);
  } catch (err) {
    if (!(err instanceof ApiError) || err.status >= 500) throw err;
    error = err;
  }
  const omitted = await omittedOn(c.env.DB, workspaceId, kstDate(Date.now()));
  const next = page.nextCursor ? `${base}?${new URLSearchParams({ ...shown, cursor: page.nextCursor })}` : null;
  return c.html(
    <Page title="API 요청 기록" nav={<WorkspaceNav workspaceId={workspaceId} user={user} role={workspaceRoleOf(c)} />}>
      <ErrorAlert error={error} />
      <p>이 워크스페이스의 API 키로 보낸 요청을 30일 동안 보관합니다. 요청은 응답 뒤에 기록되므로 목록에 보이기까지 몇 초 걸릴 수 있습니다.</p>
      {omitted > 0 && (
        <p role="status" id="log-budget-spent">
          오늘(한국 시간) 요청 기록 한도를 다 써서 요청 {omitted.toLocaleString("ko-KR")}건은 기록하지 않았습니다. 요청은 모두 처리되었고, 기록만 빠졌습니다. 한도는 요금제마다 다르며 내일 0시에 다시 채워집니다.
        </p>
      )}
      <form method="get" action={base}>
        <label for="requestId">요청 ID로 찾기</label>
        <input id="requestId" name="requestId" maxlength={MAX.id} placeholder="req_…" />
        <button type="submit">찾기</button>
      </form>
      <FilterForm action={base} shown={shown} keys={await listApiKeys(c.env.DB, workspaceId)} />
      <DataTable id="request-logs" columns={["시각", "요청", "상태", "오류 코드", "지연(ms)", "API 키"]}>
        {page.items.map((row) => (
          <tr data-request-id={row.id}>
            <td>
              <a href={`${base}/${row.id}`}>{kst(row.createdAt)}</a>
            </td>
            <td>
              <code>
                {row.method} {row.path}
              </code>
            </td>
            <td>
              <Status row={row} />
            </td>
            <td>{row.errorCode ?? ""}</td>
            <td>{row.latencyMs}</td>
            <td>{row.apiKeyPrefix}…</td>
          </tr>
        ))}
      </DataTable>
      {page.items.length === 0 && !error && <p>조건에 맞는 요청이 없습니다.</p>}
      {next && (
        <p>
          <a id="next-page" href={next}>
            다음 페이지
          </a>
        </p>
      )}
    </Page>,
    (error?.status ?? 200) as 200,
  );
}

const Json = (props: { id: string; value: unknown }) => <pre id={props.id}>{props.value === null || props.value === undefined ? "없음" : JSON.stringify(props.value, null, 2)}</pre>;

/** One request: what was sent (redacted) and the error it got; another workspace's request is not found here. */
export async function showRequestLog(c: ConsoleContext<"workspaceId" | "requestId">): Promise<Response> {
  const user = consoleUserOf(c);
  const { workspaceId, requestId } = c.req.valid("param");
  const nav = <WorkspaceNav workspaceId={workspaceId} user={user} role={workspaceRoleOf(c)} />;
  const back = (
    <p>
      <a href={`/console/w/${workspaceId}/logs`}>요청 기록으로</a>
    </p>
  );
  let row: RequestLogRow;
  try {
    row = await workspaceRequestLog(c.env.DB, workspaceId, requestId.slice(0, MAX.id));
  } catch (err) {
    if (!(err instanceof ApiError) || err.status >= 500) throw err;
    return c.html(
      <Page title="요청 기록" nav={nav}>
        <ErrorAlert error={err} />
        {back}
      </Page>,
      404,
    );
  }
  return c.html(
    <Page title={`요청 ${row.id}`} nav={nav}>
      {back}
      <dl id="request-log">
        <dt>요청 ID</dt>
        <dd>
          <code>{row.id}</code>
        </dd>
        <dt>시각</dt>
        <dd>{kst(row.createdAt)}</dd>
        <dt>요청</dt>
        <dd>
          <code>
            {row.method} {row.path}
          </code>
        </dd>
        <dt>상태</dt>
        <dd>
          <Status row={row} /> {row.errorCode ?? ""}
        </dd>
        <dt>지연</dt>
        <dd>{row.latencyMs} ms</dd>
        <dt>API 키</dt>
        <dd>{row.apiKeyPrefix}…</dd>
        <dt>Idempotency-Key</dt>
        <dd>{row.idempotencyKey ?? "없음"}</dd>
      </dl>
      <h2>쿼리</h2>
      <Json id="request-query" value={row.query} />
      <h2>본문 (비밀 값은 [REDACTED])</h2>
      <Json id="request-body" value={row.body} />
      <h2>받은 오류</h2>
      <Json id="error-body" value={row.errorBody} />
    </Page>,
  );
}
