import { WEBHOOK_EVENT_TYPES } from "../../contracts/webhooks";
import { verifiedForm } from "../domain/console-sessions/csrf";
import { type ConsoleContext, consoleUserOf, workspaceRoleOf } from "./context";
import { CreateEndpointBodySchema } from "../domain/webhooks/inputs";
import { listDeliveries } from "../domain/webhooks/deliveries";
import { createEndpoint, deleteEndpoint, findEndpoint, listEndpoints, rotateSecret } from "../domain/webhooks/endpoints";
import { replayWebhook } from "../domain/webhooks/emit";
import { checkWebhookUrl, localUrlsAllowed } from "../domain/webhooks/url";
import { asApiBody, type FormOutcome, onPage } from "../web/form-outcome";
import { kst } from "../web/kst";
import { ActionButton, CsrfField, DataTable, DeleteForm, Outcome, Page } from "../web/layout";
import { WorkspaceNav } from "./workspace-nav";

const ENDPOINTS_SHOWN = 50;
const DELIVERIES_SHOWN = 50;
const DELIVERY_STATUS = { PENDING: "보내는 중", SUCCEEDED: "도착", FAILED: "실패" } as const;

/** What a page shows after a form that made a secret: the secret, once. */
type Shown = FormOutcome & { secret?: string };

const SecretNotice = (props: { secret?: string }) =>
  props.secret ? (
    <div class="notice" role="status">
      <p>서명 비밀 값입니다. 지금 한 번만 보입니다. 수신 서버에 넣어 두세요 (Standard Webhooks 라이브러리로 검증할 수 있습니다).</p>
      <p>
        <code id="webhook-secret">{props.secret}</code>
      </p>
    </div>
  ) : null;

async function endpointsPage(c: ConsoleContext<"workspaceId">, shown: Shown = {}) {
  const user = consoleUserOf(c);
  const workspaceId = c.req.valid("param").workspaceId;
  const base = `/console/w/${workspaceId}/webhooks`;
  const endpoints = (await listEndpoints(c.env.DB, workspaceId, ENDPOINTS_SHOWN)).slice(0, ENDPOINTS_SHOWN);
  return c.html(
    <Page title="웹훅" nav={<WorkspaceNav workspaceId={workspaceId} user={user} role={workspaceRoleOf(c)} />}>
      <Outcome shown={shown} />
      <SecretNotice secret={shown.secret} />
      <ul id="endpoints">
        {endpoints.map((endpoint) => (
          <li data-endpoint-id={endpoint.id}>
            <a href={`${base}/${endpoint.id}`}>{endpoint.url}</a> · {endpoint.events.join(", ")} · {kst(endpoint.createdAt)}
            <DeleteForm action={`${base}/${endpoint.id}/delete`} csrf={user.csrf} label={`${endpoint.url} 엔드포인트 삭제`} />
          </li>
        ))}
      </ul>
      {endpoints.length === 0 && <p>등록한 엔드포인트가 없습니다.</p>}
      <h2>엔드포인트 추가</h2>
      <form method="post" action={base}>
        <CsrfField token={user.csrf} />
        <label for="webhook-url">받을 주소 (https)</label>
        <input id="webhook-url" name="url" type="url" required maxlength={2048} placeholder="https://partner.example.co.kr/hooks/collect" />
        <fieldset>
          <legend>받을 이벤트</legend>
          {WEBHOOK_EVENT_TYPES.map((type) => (
            <label style="font-weight:normal">
              <input type="checkbox" name="events" value={type} checked={type.startsWith("data_job.")} style="width:auto" /> {type}
            </label>
          ))}
        </fieldset>
        <button type="submit">추가</button>
      </form>
    </Page>,
    shown.error ? (shown.error.status as 400) : (shown.status ?? 200),
  );
}

/** One endpoint's delivery log: each event's status, its attempts with the answer and how long it took, replay; and the secret's rotation. */
async function deliveriesPage(c: ConsoleContext<"workspaceId" | "endpointId">, shown: Shown = {}) {
  const user = consoleUserOf(c);
  const workspaceId = c.req.valid("param").workspaceId;
  const endpoint = await findEndpoint(c.env.DB, workspaceId, c.req.valid("param").endpointId);
  const base = `/console/w/${workspaceId}/webhooks/${endpoint.id}`;
  const deliveries = (await listDeliveries(c.env.DB, endpoint.id, DELIVERIES_SHOWN)).slice(0, DELIVERIES_SHOWN);
  return c.html(
    <Page title="웹훅 전달 기록" nav={<WorkspaceNav workspaceId={workspaceId} user={user} role={workspaceRoleOf(c)} />}>
      <Outcome shown={shown} />
      <SecretNotice secret={shown.secret} />
      <p>
        <code>{endpoint.url}</code>
      </p>
      <form method="post" action={`${base}/rotate-secret`}>
        <CsrfField token={user.csrf} />
        <p>비밀 값을 바꾸면 24시간 동안은 이전 값으로도 함께 서명하니, 그 사이에 수신 서버를 바꾸면 됩니다.</p>
        <button type="submit">서명 비밀 값 교체</button>
      </form>
      <DataTable columns={["이벤트", "상태", "시도 (응답 · 걸린 시간)", "만든 때", { hidden: "다시 보내기" }]}>
        {deliveries.map((delivery) => (
          <tr data-delivery-id={delivery.id} data-status={delivery.status}>
            <td>
              {delivery.eventType} <code>{delivery.eventId}</code>
            </td>
            <td>{DELIVERY_STATUS[delivery.status]}</td>
            <td>
              <ol>
                {delivery.attempts.map((attempt) => (
                  <li data-response={attempt.responseStatus ?? ""}>
                    {kst(attempt.at)} · {attempt.responseStatus ?? attempt.error ?? "-"} · {attempt.durationMs}ms
                  </li>
                ))}
              </ol>
            </td>
            <td>{kst(delivery.createdAt)}</td>
            <td>
              {delivery.status !== "PENDING" && (
                <ActionButton action={`${base}/deliveries/${delivery.id}/replay`} csrf={user.csrf} text="다시 보내기" label={`${delivery.eventType} 다시 보내기`} />
              )}
            </td>
          </tr>
        ))}
      </DataTable>
      {deliveries.length === 0 && <p>아직 보낸 이벤트가 없습니다.</p>}
      <p>
        <a href={`/console/w/${workspaceId}/webhooks`}>엔드포인트 목록으로</a>
      </p>
    </Page>,
    shown.error ? (shown.error.status as 400) : (shown.status ?? 200),
  );
}

export const showWebhooks = (c: ConsoleContext<"workspaceId">) => endpointsPage(c);
export const showWebhookDeliveries = (c: ConsoleContext<"workspaceId" | "endpointId">) => deliveriesPage(c);

/** Runs a form and shows `page` with its outcome (and a secret it made, once). */
async function webhookForm<C extends ConsoleContext<"workspaceId">>(c: C, page: (c: C, shown: Shown) => Promise<Response>, act: (fields: Record<string, string | string[]>) => Promise<{ done: string; secret?: string }>) {
  const fields = await verifiedForm(c, consoleUserOf(c).sessionToken);
  let secret: string | undefined;
  return onPage(
    c,
    (ctx, shown) => page(ctx, { ...shown, secret }),
    async () => {
      const outcome = await act(fields);
      secret = outcome.secret;
      return outcome.done;
    },
  );
}

export async function createWebhookForm(c: ConsoleContext<"workspaceId">): Promise<Response> {
  const events = (await c.req.parseBody({ all: true })).events;
  return webhookForm(c, endpointsPage, async (fields) => {
    const body = asApiBody(CreateEndpointBodySchema, { url: fields.url ?? "", events: [events ?? []].flat() });
    const { row, secret } = await createEndpoint(c.env.DB, c.env.VAULT_MASTER_KEY, c.req.valid("param").workspaceId, {
      url: checkWebhookUrl(body.url, localUrlsAllowed(c.env)),
      events: body.events,
      description: null,
    });
    return { done: `엔드포인트를 추가했습니다: ${row.url}`, secret };
  });
}

export const deleteWebhookForm = (c: ConsoleContext<"workspaceId" | "endpointId">) =>
  webhookForm(c, endpointsPage, async () => {
    await deleteEndpoint(c.env.DB, c.req.valid("param").workspaceId, c.req.valid("param").endpointId);
    return { done: "엔드포인트를 삭제했습니다. 그곳으로는 더 보내지 않습니다." };
  });

export const rotateWebhookSecretForm = (c: ConsoleContext<"workspaceId" | "endpointId">) =>
  webhookForm(c, deliveriesPage, async () => {
    const { secret } = await rotateSecret(c.env.DB, c.env.VAULT_MASTER_KEY, c.req.valid("param").workspaceId, c.req.valid("param").endpointId);
    return { done: "서명 비밀 값을 바꿨습니다.", secret };
  });

export const replayWebhookForm = (c: ConsoleContext<"workspaceId" | "endpointId" | "deliveryId">) =>
  webhookForm(c, deliveriesPage, async () => {
    const endpoint = await findEndpoint(c.env.DB, c.req.valid("param").workspaceId, c.req.valid("param").endpointId);
    const row = await replayWebhook(c.env, endpoint.id, c.req.valid("param").deliveryId);
    return { done: `${row.eventType} 이벤트를 다시 보냅니다.` };
  });
