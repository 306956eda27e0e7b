import { bankGroundTruth } from "../sandbox/bank/ground-truth";
import { fromDay, toDay, todayKst } from "../sandbox/dates";
const range = { start: fromDay(toDay(todayKst()) - 14), end: todayKst() };
let bad = 0; const N = 1000;
for (let i = 0; i < N; i++) {
  const loginId = `since_${crypto.randomUUID().slice(0, 8)}`;
  const [account] = bankGroundTruth(loginId).accounts.map((a) => a.accountNumber);
  const truth = (revision: number) => new Map(bankGroundTruth(loginId, range, revision).transactions.filter((t) => t.accountNumber === account).map((t) => [t.identifier, t]));
  const [before, after] = [truth(0), truth(1)];
  const ch = new Set<string>();
  for (const t of after.values()) if (JSON.stringify(t) !== JSON.stringify(before.get(t.identifier))) ch.add(before.has(t.identifier) ? "modified" : "added");
  for (const t of before.values()) if (!after.has(t.identifier)) ch.add("removed");
  if (ch.size !== 3) bad++;
}
console.log({ bad, N });
