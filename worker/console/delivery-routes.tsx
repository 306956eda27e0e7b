import { verifiedForm } from "../domain/console-sessions/csrf";
import { deleteRoute, findRoute, listDeliveries, listRoutes, type RouteRow, createRoute as storeRoute } from "../domain/deliveries/store";
import { type ConsoleContext, consoleUserOf, workspaceRoleOf } from "./context";
import { ApiError } from "../platform/errors/api-error";
import { localDestinationsAllowed } from "../platform/http/public-destination";
import { CreateDeliveryRouteBodySchema, routeInput } from "../domain/deliveries/inputs";
import { routeView } from "../domain/deliveries/views";
import { kst } from "../web/kst";
import { CsrfField, DataTable, DeleteForm, Outcome, Page } from "../web/layout";
import { asApiBody, type FormOutcome, onPage } from "../web/form-outcome";
import { WorkspaceNav } from "./workspace-nav";

/** As many routes as a page shows; a workspace sends results to a few places, not hundreds. */
const ROUTES_SHOWN = 100;
const DELIVERIES_SHOWN = 50;
const DELIVERY_STATUS = { PENDING: "보내는 중", SENT: "도착", FAILED: "실패" } as const;


/** As the API answers an unknown route in its own path (api/delivery-routes/delete.ts). */
const routeNotFound = () => new ApiError("RESOURCE_NOT_FOUND", { message: "전달 경로를 찾을 수 없습니다." });

/** Where a route sends, as its owner wrote it: never the secret. */
function destination(route: RouteRow): string {
  const view = routeView(route);
  if ("s3" in view) return `${view.s3.endpoint} · ${view.s3.bucket}/${view.s3.prefix}`;
  const { sftp } = view;
  return `${sftp.username}@${sftp.host}:${sftp.port}/${sftp.directory} · SHA256:${sftp.hostKeySha256}`;
}

async function routesPage(c: ConsoleContext<"workspaceId">, shown: FormOutcome = {}) {
  const user = consoleUserOf(c);
  const workspaceId = c.req.valid("param").workspaceId;
  const base = `/console/w/${workspaceId}/delivery-routes`;
  const routes = (await listRoutes(c.env.DB, workspaceId, { limit: ROUTES_SHOWN, after: undefined })).slice(0, ROUTES_SHOWN);
  return c.html(
    <Page title="결과 전달 경로" nav={<WorkspaceNav workspaceId={workspaceId} user={user} role={workspaceRoleOf(c)} />}>
      <Outcome shown={shown} />
      <p>
        경로를 붙인 작업이나 일정이 성공하면 그 결과(results.csv, results.json, 마지막에 manifest.json)를 S3 호환 버킷(R2 포함)이나 SFTP 서버로
        보냅니다. 실패하면 웹훅처럼 다시 시도합니다. 비밀(접근 키의 비밀, 비밀번호나 개인 키)은 봉인해 다시 보여 주지 않습니다.
      </p>
      <h2>경로 목록</h2>
      <DataTable columns={["이름", "종류", "보내는 곳", "등록", { hidden: "관리" }]}>
        {routes.map((route) => (
          <tr data-route-id={route.id}>
            <td>
              <a href={`${base}/${route.id}`}>{route.name}</a>
            </td>
            <td>{route.kind}</td>
            <td>
              <code>{destination(route)}</code>
            </td>
            <td>{kst(route.createdAt)}</td>
            <td>
              <DeleteForm action={`${base}/${route.id}/delete`} csrf={user.csrf} label={`${route.name} 경로 삭제`} />
            </td>
          </tr>
        ))}
      </DataTable>
      {routes.length === 0 && <p>경로가 없습니다.</p>}
      <h2>S3 호환 버킷 추가</h2>
      <form method="post" action={base}>
        <CsrfField token={user.csrf} />
        <input type="hidden" name="kind" value="S3" />
        <label for="s3-name">이름</label>
        <input id="s3-name" name="name" required maxlength={200} />
        <label for="s3-endpoint">주소 (예: https://&lt;account&gt;.r2.cloudflarestorage.com)</label>
        <input id="s3-endpoint" name="endpoint" type="url" required maxlength={2048} />
        <label for="s3-bucket">버킷</label>
        <input id="s3-bucket" name="bucket" required maxlength={63} />
        <label for="s3-region">리전 (R2는 auto)</label>
        <input id="s3-region" name="region" maxlength={64} placeholder="auto" />
        <label for="s3-prefix">경로 앞부분 (예: collect/)</label>
        <input id="s3-prefix" name="prefix" maxlength={512} />
        <label for="s3-access-key">접근 키 ID</label>
        <input id="s3-access-key" name="accessKeyId" required maxlength={128} autocomplete="off" />
        <label for="s3-secret">비밀 접근 키</label>
        <input id="s3-secret" name="secret" type="password" required maxlength={16384} autocomplete="off" />
        <button type="submit">버킷 추가</button>
      </form>
      <h2>SFTP 서버 추가</h2>
      <form method="post" action={base}>
        <CsrfField token={user.csrf} />
        <input type="hidden" name="kind" value="SFTP" />
        <label for="sftp-name">이름</label>
        <input id="sftp-name" name="name" required maxlength={200} />
        <label for="sftp-host">호스트</label>
        <input id="sftp-host" name="host" required maxlength={253} />
        <label for="sftp-port">포트</label>
        <input id="sftp-port" name="port" type="number" min={1} max={65535} placeholder="22" />
        <label for="sftp-username">사용자</label>
        <input id="sftp-username" name="username" required maxlength={128} autocomplete="off" />
        <label for="sftp-directory">디렉터리</label>
        <input id="sftp-directory" name="directory" maxlength={512} />
        <label for="sftp-host-key">호스트 키 SHA-256 지문 (ssh-keygen -l -E sha256에서 SHA256: 뒤)</label>
        <input id="sftp-host-key" name="hostKeySha256" required maxlength={44} />
        <label for="sftp-secret">비밀번호, 또는 개인 키 (OpenSSH나 PEM)</label>
        <textarea id="sftp-secret" name="secret" required maxlength={16384} autocomplete="off"></textarea>
        <button type="submit">SFTP 서버 추가</button>
      </form>
    </Page>,
    shown.error ? (shown.error.status as 400) : (shown.status ?? 200),
  );
}

export const showDeliveryRoutes = (c: ConsoleContext<"workspaceId">) => routesPage(c);

/** A route's delivery log: each succeeded job's files, with the attempts and the last error. */
export async function showRouteDeliveries(c: ConsoleContext<"workspaceId" | "routeId">): Promise<Response> {
  const workspaceId = c.req.valid("param").workspaceId;
  const route = await findRoute(c.env.DB, c.req.valid("param").routeId, [workspaceId]);
  if (!route) throw routeNotFound();
  const deliveries = (await listDeliveries(c.env.DB, route.id, { limit: DELIVERIES_SHOWN })).slice(0, DELIVERIES_SHOWN);
  const jobs = `/console/w/${workspaceId}/jobs`;
  return c.html(
    <Page title={`${route.name} 전달 기록`} nav={<WorkspaceNav workspaceId={workspaceId} user={consoleUserOf(c)} role={workspaceRoleOf(c)} />}>
      <p>
        {route.kind} · <code>{destination(route)}</code>
      </p>
      <DataTable columns={["작업", "상태", "시도", "파일", "마지막 시도"]}>
        {deliveries.map((delivery) => (
          <tr data-delivery-id={delivery.id}>
            <td>
              <a href={`${jobs}/${delivery.jobId}`}>{delivery.jobId.slice(0, 8)}</a>
            </td>
            <td data-status={delivery.status}>
              {DELIVERY_STATUS[delivery.status]}
              {delivery.lastError && <p data-last-error>{delivery.lastError}</p>}
            </td>
            <td>{delivery.attempts}</td>
            <td>{delivery.files?.map((file) => `${file.name} (${file.bytes.toLocaleString("ko-KR")} B)`).join(", ") ?? "-"}</td>
            <td>{kst(delivery.updatedAt)}</td>
          </tr>
        ))}
      </DataTable>
      {deliveries.length === 0 && <p>아직 보낸 결과가 없습니다.</p>}
      <p>
        <a href={`/console/w/${workspaceId}/delivery-routes`}>경로 목록으로</a>
      </p>
    </Page>,
  );
}

/** The form read as the API's create request and checked by the same schema, so both refuse alike. */
function routeRequest(fields: Record<string, string>) {
  const optional = (name: string) => (fields[name] ? { [name]: fields[name] } : {});
  const body =
    fields.kind === "SFTP"
      ? {
          kind: "SFTP",
          name: fields.name ?? "",
          sftp: { host: fields.host ?? "", ...(fields.port ? { port: Number(fields.port) } : {}), username: fields.username ?? "", ...optional("directory"), hostKeySha256: fields.hostKeySha256 ?? "" },
          secret: fields.secret ?? "",
        }
      : {
          kind: "S3",
          name: fields.name ?? "",
          s3: { endpoint: fields.endpoint ?? "", bucket: fields.bucket ?? "", ...optional("region"), accessKeyId: fields.accessKeyId ?? "", ...optional("prefix") },
          secretAccessKey: fields.secret ?? "",
        };
  return asApiBody(CreateDeliveryRouteBodySchema, body);
}

export async function createDeliveryRouteForm(c: ConsoleContext<"workspaceId">): Promise<Response> {
  const fields = await verifiedForm(c, consoleUserOf(c).sessionToken);
  return onPage(
    c,
    routesPage,
    async () => {
      const row = await storeRoute(c.env.DB, c.env.VAULT_MASTER_KEY, { workspaceId: c.req.valid("param").workspaceId, ...routeInput(routeRequest(fields)) }, localDestinationsAllowed(c.env));
      return `경로를 등록했습니다: ${row.name}. 작업이나 일정을 만들 때 deliveryRouteId로 붙이세요.`;
    },
    201,
  );
}

export async function deleteDeliveryRouteForm(c: ConsoleContext<"workspaceId" | "routeId">): Promise<Response> {
  await verifiedForm(c, consoleUserOf(c).sessionToken);
  return onPage(c, routesPage, async () => {
    if (!(await deleteRoute(c.env.DB, c.req.valid("param").workspaceId, c.req.valid("param").routeId))) throw routeNotFound();
    return "경로를 지웠습니다. 보낸 기록은 남고, 이 경로를 이름으로 부르는 새 작업은 거절됩니다.";
  });
}
