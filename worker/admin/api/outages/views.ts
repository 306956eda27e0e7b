import type { OutageRow } from "../../../domain/catalog/outages";
import { isoTime, isoTimeOrNull } from "../../../platform/lib/iso-time";

export const outageView = (o: OutageRow) => ({
  id: o.id,
  providerCode: o.providerCode,
  startsAt: isoTime(o.startsAt),
  endsAt: isoTime(o.endsAt),
  note: o.note,
  withdrawnAt: isoTimeOrNull(o.withdrawnAt),
});
