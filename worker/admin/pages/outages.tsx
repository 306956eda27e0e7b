import type { Context } from "hono";
import { upcomingOutageRows } from "../../domain/catalog/outages";
import { allProviders, findProvider } from "../../domain/catalog/providers";
import { actorOf, type AdminPageContext, type AdminPagesEnv, operatorCsrfOf, operatorOf } from "../context";
import { ApiError } from "../../platform/errors/api-error";
import { MAX } from "../../platform/http/bounds";
import { announceProviderOutage, withdrawProviderOutage } from "../../domain/operators/actions";
import { operatorMay } from "../../domain/operators/permissions";
import { CsrfField } from "../../web/layout";
import { kst } from "../../web/kst";
import { kstIso } from "../../../contracts/korean-time";
import { OutageNoteSchema } from "../api/outages/shapes";
import { actionForm, AdminPage, answerForm, ReasonField } from "./layout";

const BACK = "/admin/outages";
/** A `datetime-local` value, read as Korean time: what an operator reading a Korean institution's notice types. */
const DATETIME_LOCAL = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/;
const kstInput = (value: string | undefined) => (value && DATETIME_LOCAL.test(value) ? kstIso(`${value}:00`) : "");

/** Outages operators announced that are not over yet, and (for roles that may) the form to announce one and the buttons to withdraw them. */
export async function showOutages(c: Context<AdminPagesEnv>): Promise<Response> {
  const rows = await upcomingOutageRows(c.env.DB, Date.now());
  const manages = operatorMay(operatorOf(c).role, "outages.manage");
  const csrf = operatorCsrfOf(c);
  return c.html(
    <AdminPage c={c} title="기관 장애·점검">
      <p>여기 등록한 시간은 기관의 점검 달력에 더해져 파트너의 GET /providers에 보이고, 이 시간에 걸리는 작업은 끝날 때까지 기다립니다.</p>
      {rows.length === 0 && <p role="status">등록된 장애·점검이 없습니다.</p>}
      <ul>
        {rows.map((o) => (
          <li data-outage={o.id}>
            {findProvider(o.providerCode)?.name ?? o.providerCode}: {kst(o.startsAt)} ~ {kst(o.endsAt)} · {o.note}
            {manages && (
              <form method="post" action={`/admin/outages/${o.providerCode}/${o.id}/withdraw`}>
                <CsrfField token={csrf} />
                <ReasonField id={`withdraw-${o.id}`} />
                <button type="submit">철회</button>
              </form>
            )}
          </li>
        ))}
      </ul>
      {manages && (
        <>
          <h2>새로 등록</h2>
          <form method="post" action={BACK}>
            <CsrfField token={csrf} />
            <label for="providerCode">기관</label>
            <select id="providerCode" name="providerCode">
              {allProviders().map((p) => (
                <option value={p.code}>{p.name}</option>
              ))}
            </select>
            <label for="startsAt">시작 (한국 시간)</label>
            <input id="startsAt" name="startsAt" type="datetime-local" required />
            <label for="endsAt">끝 (한국 시간)</label>
            <input id="endsAt" name="endsAt" type="datetime-local" required />
            <label for="note">파트너에게 보일 안내</label>
            <input id="note" name="note" maxlength={MAX.name} required />
            <ReasonField id="announce-reason" />
            <button type="submit">등록</button>
          </form>
        </>
      )}
    </AdminPage>,
  );
}

export const announceForm = (c: Context<AdminPagesEnv>) =>
  answerForm(c, BACK, async () => {
    const { fields, reason } = await actionForm(c);
    const provider = findProvider(fields.providerCode ?? "");
    if (!provider) throw new ApiError("INVALID_PROVIDER_CODE");
    const note = OutageNoteSchema.safeParse(fields.note ?? "");
    if (!note.success) throw new ApiError("INVALID_PARAM_FORMAT", { message: `안내는 1자 이상 ${MAX.name}자 이하로 적어 주세요.` });
    await announceProviderOutage(c.env, actorOf(c), provider, { startsAt: kstInput(fields.startsAt), endsAt: kstInput(fields.endsAt), note: note.data, reason });
  });

export const withdrawForm = (c: AdminPageContext<"code" | "id">) =>
  answerForm(c, BACK, async () => {
    const { reason } = await actionForm(c);
    await withdrawProviderOutage(c.env, actorOf(c), c.req.valid("param").code, c.req.valid("param").id, reason);
  });
