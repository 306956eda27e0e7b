import type { HistoryDay } from "../../domain/catalog/history";
import type { OutageRow } from "../../domain/catalog/outages";
import { HISTORY_DAYS } from "../../domain/catalog/provider-days";
import { kst } from "../kst";

type DayState = HistoryDay["state"];

/** What a day's bar says in words: its colour and height say the same to those who can see them. */
const DAY_STATE_NAMES: Record<DayState, string> = { OPERATIONAL: "정상", DEGRADED: "일부 지연·실패", DOWN: "장애", MAINTENANCE: "장애·점검 공지", NO_DATA: "기록 없음" };

const dayName = (day: string) => `${Number(day.slice(5, 7))}월 ${Number(day.slice(8, 10))}일`;

function dayText(d: HistoryDay): string {
  const jobs = d.ended === 0 ? "" : ` (작업 ${d.ended}건${d.successRate === null ? "" : `, 성공률 ${Math.round(d.successRate * 1000) / 10}%`})`;
  const notes = d.outages.map((o) => ` · ${o.note}`).join("");
  return `${dayName(d.day)}: ${DAY_STATE_NAMES[d.state]}${jobs}${notes}`;
}

/** How many days of each state, the worst first, e.g. "장애·점검 공지 2일 · 정상 80일 · 기록 없음 8일": the bars in one line. */
function tally(days: readonly HistoryDay[]): string {
  const order: DayState[] = ["DOWN", "DEGRADED", "MAINTENANCE", "OPERATIONAL", "NO_DATA"];
  return order
    .map((s) => [s, days.filter((d) => d.state === s).length] as const)
    .filter(([, n]) => n > 0)
    .map(([s, n]) => `${DAY_STATE_NAMES[s]} ${n}일`)
    .join(" · ");
}

/** The states' colours and heights, for sighted readers; a screen reader reads each bar's words instead. */
export const HistoryLegend = () => (
  <ul class="history-legend" aria-hidden="true">
    {(Object.keys(DAY_STATE_NAMES) as DayState[]).map((s) => (
      <li>
        <span class="history-bar" data-state={s} /> {DAY_STATE_NAMES[s]}
      </li>
    ))}
  </ul>
);

const Incidents = (props: { incidents: readonly OutageRow[] }) => (
  <>
    <h4>공지된 장애·점검</h4>
    <ul class="incidents">
      {props.incidents.map((o) => (
        <li data-incident={o.id}>
          <time datetime={new Date(o.startsAt).toISOString()}>{kst(o.startsAt)}</time> ~ <time datetime={new Date(o.endsAt).toISOString()}>{kst(o.endsAt)}</time>: {o.note}
        </li>
      ))}
    </ul>
  </>
);

/**
 * One institution's last 90 days as a status page shows a component: a bar a day, oldest on the left, each with its
 * words for a screen reader (and a tooltip), and the outages announced in them.
 */
export const ProviderHistory = (props: { code: string; name: string; days: readonly HistoryDay[]; incidents: readonly OutageRow[] }) => (
  <section class="history" data-history={props.code} aria-labelledby={`history-${props.code}`}>
    <h3 id={`history-${props.code}`}>{props.name}</h3>
    <p class="history-summary">
      최근 {HISTORY_DAYS}일: {tally(props.days)}
      {props.incidents.length === 0 ? " · 공지된 장애·점검 없음" : ""}
    </p>
    <ol class="history-bars" aria-label={`${props.name} 최근 ${HISTORY_DAYS}일, 오래된 날부터`}>
      {props.days.map((d) => (
        <li class="history-bar" data-day={d.day} data-state={d.state} title={dayText(d)}>
          <span class="sr-only">{dayText(d)}</span>
        </li>
      ))}
    </ol>
    <p class="history-ends" aria-hidden="true">
      <span>{HISTORY_DAYS}일 전</span>
      <span>오늘</span>
    </p>
    {props.incidents.length > 0 && <Incidents incidents={props.incidents} />}
  </section>
);
