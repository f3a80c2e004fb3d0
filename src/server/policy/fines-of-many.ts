import { and, eq, sql } from 'drizzle-orm';
import { computeSessionAccount } from '../../domain/fees';
import { computeLateFine, fineInstalments } from '../../domain/fines';
import { planSchedule, dueTiming } from '../../domain/instalments';
import { planFor } from './plans';
import { paise, type Paise } from '../../domain/money';
import { sessionMonths } from '../../domain/sessions';
import { loadBalanceInputs } from '../balances/inputs';
import type { Db } from '../db/client';
import { inIds } from '../lib/sql-sets';
import { fineWaivers } from '../db/schema';
import { structureAmounts, structureFor } from '../fees/queries';
import { loadLateFineRule } from './fines';

/**
 * Today's late fine of many students at once (issue 16: "the same on every screen"): the figure
 * `studentFine` gives fee status and the payment link, from the same domain functions, with the
 * account read through the running balances' one loader (set-based: a few reads whatever the
 * number of students). Nothing is read when the school has no fine rule. `today`: the India date.
 */
export async function finesOfMany(
  db: Db,
  { schoolId, people, today }: { schoolId: string; people: ReadonlyArray<{ id: string; sessionId: string }>; today: string },
): Promise<Map<string, Paise>> {
  const out = new Map<string, Paise>();
  if (people.length === 0) return out;
  const rule = await loadLateFineRule(db, schoolId);
  if (!rule.enabled) return out;
  const ids = [...new Set(people.map((p) => p.id))];
  const [inputs, waivers] = await Promise.all([
    loadBalanceInputs(db, { schoolId, studentIds: ids }),
    db
      .select({ studentId: fineWaivers.studentId, sessionId: fineWaivers.sessionId, instalment: fineWaivers.instalment })
      .from(fineWaivers)
      .where(and(eq(fineWaivers.schoolId, schoolId), eq(fineWaivers.status, 'approved'), inIds(sql`${fineWaivers.studentId}`, ids))),
  ]);
  const waived = new Map<string, Set<string>>();
  for (const w of waivers) {
    const key = `${w.studentId}|${w.sessionId}`;
    waived.set(key, (waived.get(key) ?? new Set()).add(w.instalment));
  }
  const students = new Map(inputs.students.map((s) => [s.id, s]));
  const asOf = today;
  for (const person of people) {
    const st = students.get(person.id);
    const session = inputs.sessions.get(person.sessionId);
    if (!st || !session) continue;
    const key = `${person.id}|${person.sessionId}`;
    const className = inputs.enrollments.get(key)?.className ?? st.className;
    const structure = structureFor(inputs.structures, className, session.name);
    const months = sessionMonths(session.startDate, session.endDate);
    const amounts = structure ? structureAmounts(structure) : null;
    const busFee = paise(st.monthlyBusFeePaise);
    const plan = planFor(inputs.plans, className);
    const schedule = planSchedule(amounts, plan, { months, busFee });
    const account = computeSessionAccount({
      months,
      asOfMonth: today.slice(0, 7),
      structure: amounts,
      busFee,
      feesFrom: st.feesFromMonth,
      lines: inputs.lines.get(key) ?? [],
      concessions: inputs.concessions.get(key),
      timing: schedule ? dueTiming(schedule, plan) : null,
    });
    const fine = computeLateFine({ rule, asOf, instalments: fineInstalments(account, rule, schedule), waivedKeys: waived.get(key), paid: account.finePaid });
    if (fine.due > 0) out.set(person.id, fine.due);
  }
  return out;
}
