import { YEARLY_HEADS, type YearlyHead } from './ledger';
import { computeSessionAccount, yearlyOwedAt, yearlyPartsAt, yearlyShareDue, type SessionAccountInput } from './fees';
import { paise, ZERO, type Paise } from './money';

/**
 * A student's running balance of one session (issue 14, decision 0041): ruling 6's account from
 * `computeSessionAccount`, folded into the figures a screen needs at ANY horizon month, so the
 * stored row answers without the ledger. Approved concessions (issue 16) come in through the input
 * and change the account the domain function returns; the fold also keeps what they take off.
 *
 * `monthlyOwed[k]` is the monthly outstanding with the session's month k as the horizon: a
 * month's outstanding does not depend on the horizon (only whether it counts), so the till-date
 * figure is the running sum of the months' own outstanding.
 */
export interface SessionBalance {
  startKey: string;
  tuition: Paise;
  bus: Paise;
  expected: Record<YearlyHead, Paise>;
  paid: Record<YearlyHead, Paise>;
  /** what the yearly heads owe once the session has begun */
  yearlyOwed: Paise;
  /**
   * under an instalment plan that splits the yearly heads over its instalments (decision 0048): what
   * they owe with month k as the horizon; null when they fall due whole with the session's first month
   */
  yearlyOwedByMonth: Paise[] | null;
  /**
   * under an instalment plan (decision 0048): with month k as the horizon, the index of the last
   * month whose fees have fallen due (a quarter's months fall due with its first), −1 for none;
   * `monthlyOwed[dueThrough[k]]` is then the monthly outstanding. Null under the monthly plan.
   */
  dueThrough: number[] | null;
  /**
   * with `yearlyOwedByMonth`, for the reports' reconciliation at month k: the yearly heads' gross part
   * due, the concessions' part and what was received against it; null when they fall due whole
   */
  yearlyDueByMonth: Paise[] | null;
  yearlyGrantedByMonth: Paise[] | null;
  yearlyReceivedByMonth: Paise[] | null;
  tuitionMask: number;
  busMask: number;
  monthlyOwed: Paise[];
  /**
   * approved concessions (issue 16) on monthly heads with nothing recorded, with month k as the
   * horizon (running sum like `monthlyOwed`): a recorded month's whole shortfall is already a
   * concession of ruling 6, so reports add only these to it
   */
  monthlyGranted: Paise[];
  /** approved concessions on the yearly heads */
  yearlyGranted: Paise;
  /**
   * for the reports' reconciliation at any horizon (decision 0041), running sums like `monthlyOwed`:
   * what the month's tuition and bus received met of their due (`applied`; what was paid beyond it,
   * or for a month before the student's fees began, is not counted), and the concessions of recorded
   * months (the shortfall forgiven plus any approved concession on them). For every month,
   * gross due = outstanding + applied + discount + granted on unrecorded heads (`monthlyGranted`).
   */
  monthlyApplied: Paise[];
  monthlyDiscount: Paise[];
  /** what the yearly heads received met of their due, less approved concessions */
  yearlyApplied: Paise;
  /** what was paid for tuition and bus naming month k, running sum like `monthlyOwed`: the dashboard's collection by month */
  monthlyPaid: Paise[];
  /** every bus line of the session, whatever month it names */
  busPaid: Paise;
  monthlyReceived: Paise;
  yearlyReceived: Paise;
  extrasReceived: Paise;
  received: Paise;
}

export function sessionBalance(input: Omit<SessionAccountInput, 'asOfMonth'>): SessionBalance {
  const last = input.months[input.months.length - 1]?.key ?? '0000-00';
  const account = computeSessionAccount({ ...input, asOfMonth: last });
  const first = input.months[0]?.key ?? '0000-00';
  const startKey = input.feesFrom && input.feesFrom > first ? input.feesFrom : first;
  let running = 0;
  let grantedRunning = 0;
  let appliedRunning = 0;
  let discountRunning = 0;
  let paidRunning = 0;
  const monthlyPaid: Paise[] = [];
  const monthlyGranted: Paise[] = [];
  const monthlyApplied: Paise[] = [];
  const monthlyDiscount: Paise[] = [];
  let tuitionMask = 0;
  let busMask = 0;
  const timing = input.timing ?? null;
  const monthlyOwed = account.months.map((m, k) => {
    running += m.outstanding;
    // 2^k by multiplication: a session is at most a few dozen months, well inside a safe integer
    if (m.tuition.recorded) tuitionMask += 2 ** k;
    if (m.bus.recorded) busMask += 2 ** k;
    for (const h of [m.tuition, m.bus]) {
      appliedRunning += h.applied;
      if (h.recorded) discountRunning += h.concession + h.granted;
      else grantedRunning += h.granted;
    }
    monthlyGranted.push(paise(grantedRunning));
    monthlyApplied.push(paise(appliedRunning));
    monthlyDiscount.push(paise(discountRunning));
    paidRunning += m.tuition.paid + m.bus.paid;
    monthlyPaid.push(paise(paidRunning));
    return paise(running);
  });
  // under a plan the months counted at horizon k are a prefix of the session (plans collect the
  // months in order, `planProblem`): the last of them, −1 for none
  const dueThrough = timing
    ? input.months.map((h) => {
        let j = -1;
        while (j + 1 < input.months.length && (timing.monthDue[input.months[j + 1]!.key] ?? input.months[j + 1]!.key) <= h.key) j += 1;
        return j;
      })
    : null;
  const yearlyWhole = !timing || (timing.yearlyParts.length === 1 && timing.yearlyParts[0]!.share === 10_000 && timing.yearlyParts[0]!.dueMonth <= first);
  const shares = yearlyWhole ? null : input.months.map((m) => yearlyShareDue(input.months, timing, m.key));
  const yearlyOwedByMonth = shares ? shares.map((share) => yearlyOwedAt(account.yearly, share)) : null;
  const parts = shares ? shares.map((share) => yearlyPartsAt(account.yearly, share)) : null;
  const expected = {} as Record<YearlyHead, Paise>;
  const paid = {} as Record<YearlyHead, Paise>;
  let yearlyGranted = 0;
  let yearlyApplied = 0;
  for (const head of YEARLY_HEADS) {
    const y = account.yearly.find((p) => p.head === head);
    expected[head] = y?.expected ?? ZERO;
    paid[head] = y?.paid ?? ZERO;
    yearlyGranted += y?.granted ?? 0;
    yearlyApplied += y?.applied ?? 0;
  }
  return {
    startKey,
    tuition: input.structure?.monthlyTuition ?? ZERO,
    bus: input.busFee,
    expected,
    paid,
    yearlyOwed: account.annual.yearlyOutstanding,
    yearlyOwedByMonth,
    dueThrough,
    yearlyDueByMonth: parts ? parts.map((x) => x.expected) : null,
    yearlyGrantedByMonth: parts ? parts.map((x) => x.granted) : null,
    yearlyReceivedByMonth: parts ? parts.map((x) => x.applied) : null,
    tuitionMask,
    busMask,
    monthlyOwed,
    monthlyGranted,
    yearlyGranted: paise(yearlyGranted),
    monthlyApplied,
    monthlyDiscount,
    yearlyApplied: paise(yearlyApplied),
    monthlyPaid,
    busPaid: paise(input.lines.reduce((t, l) => (l.head === 'bus' ? t + l.amount : t), 0)),
    monthlyReceived: account.monthlyPaid,
    yearlyReceived: account.yearlyPaid,
    extrasReceived: account.extrasPaid,
    received: account.totalPaid,
  };
}

/** The monthly outstanding at `horizon` (`YYYY-MM`) from a stored balance: 0 before the session. */
export function monthlyOwedAt(monthlyOwed: readonly number[], firstKey: string, horizon: string): number {
  if (monthlyOwed.length === 0 || horizon < firstKey) return 0;
  const k = monthsBetween(firstKey, horizon);
  return monthlyOwed[Math.min(k, monthlyOwed.length - 1)] ?? 0;
}

const monthsBetween = (a: string, b: string) => (Number(b.slice(0, 4)) - Number(a.slice(0, 4))) * 12 + Number(b.slice(5, 7)) - Number(a.slice(5, 7));
