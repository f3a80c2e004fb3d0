import {
  EXTRA_HEADS,
  HEAD_LABELS,
  isBalanceHead,
  isMonthlyHead,
  monthLabel,
  isYearlyHead,
  YEARLY_HEADS,
  type ExtraHead,
  type FeeHead,
  type MonthlyHead,
  type YearlyHead,
} from './ledger';
import { concessionShares, sumShares, type AppliedConcession, type ConcessionShare } from './concessions';
import type { DueTiming } from './instalments';
import { formatINR, paise, ZERO, type Paise } from './money';
import type { SessionMonth } from './sessions';

/**
 * Outstanding = expected − received − concessions (ruling 6), the one function every screen and
 * every move reads: fee status, outstanding-fees, promotion, rollover, discharge and passouts.
 *
 * - Expected: the class structure of the student's class in that session (tuition for every month
 *   of the session, the five yearly heads once) plus the student's own bus fee for every month.
 * - Received: live receipt lines of that student and session. A line counts towards the head and
 *   month it names; more than expected is kept as `excess`, never as a negative balance.
 * - Concessions (operations §9 "discount per month"): once a monthly head is recorded for a month
 *   (any amount above 0), the month is settled for that head and whatever is short of the expected
 *   amount is a discount given. A month's head with nothing recorded is still owed.
 * - Horizons: `tillDate` counts the session's months up to `asOfMonth` (yearly heads are due in full
 *   from the session's first month); `annual` counts every month of the session.
 */

export interface FeeStructureAmounts {
  monthlyTuition: Paise;
  yearly: Record<YearlyHead, Paise>;
}

export interface AccountLine {
  head: FeeHead;
  /** `2025-04` for monthly heads, null otherwise */
  period: string | null;
  amount: Paise;
  paidOn: string;
}

export interface SessionAccountInput {
  months: SessionMonth[];
  /** `YYYY-MM`: the current month for the till-date horizon */
  asOfMonth: string;
  /** null when the class has no fee structure for that session: nothing is expected */
  structure: FeeStructureAmounts | null;
  busFee: Paise;
  /**
   * `YYYY-MM`: the student's fees run from this month (admitted mid-session); tuition and bus of the
   * months before it are not due. Null or before the session: from the session's first month.
   */
  feesFrom?: string | null;
  /** live lines of this student for this session; previous-balance lines are ignored here */
  lines: AccountLine[];
  /** approved concessions of the student in this session (issue 16); none by default */
  concessions?: readonly AppliedConcession[];
  /** an instalment plan's due months (issue 16); monthly (each month due in itself) by default */
  timing?: DueTiming | null;
}

export interface HeadPosition {
  /** the gross due of the structure, before any concession */
  expected: Paise;
  /** taken off by approved concessions (issue 16); `expected − granted` is what may be received */
  granted: Paise;
  grants: ConcessionShare[];
  paid: Paise;
  /** the part of `paid` that meets the expectation */
  applied: Paise;
  /** paid beyond the expectation */
  excess: Paise;
  /** shortfall forgiven once the head was recorded (monthly heads only) */
  concession: Paise;
  outstanding: Paise;
  recorded: boolean;
  /** latest payment date among the lines */
  paidOn: string | null;
}

export type MonthStatus = 'Paid' | 'Partial' | 'Pending' | 'Not Recorded';

export interface MonthPosition {
  key: string;
  month: SessionMonth['month'];
  year: number;
  /** on or before the till-date month */
  due: boolean;
  tuition: HeadPosition;
  bus: HeadPosition;
  /** operations §9: (expected tuition − paid tuition) + (expected bus − paid bus), where positive, for recorded heads */
  discount: Paise;
  outstanding: Paise;
  status: MonthStatus;
}

export type YearlyHeadStatus = 'paid' | 'pending' | 'not_applicable';

export interface YearlyPosition extends HeadPosition {
  head: YearlyHead;
  status: YearlyHeadStatus;
}

export interface HorizonTotals {
  expected: Paise;
  applied: Paise;
  /** ruling 6's concessions: discounts of recorded months plus approved concessions (`granted`) */
  concessions: Paise;
  granted: Paise;
  outstanding: Paise;
  monthlyExpected: Paise;
  monthlyOutstanding: Paise;
  yearlyExpected: Paise;
  yearlyOutstanding: Paise;
}

export interface SessionAccount {
  months: MonthPosition[];
  yearly: YearlyPosition[];
  yearlyStatus: 'paid' | 'partial' | 'pending';
  yearlyPaidCount: number;
  yearlyApplicableCount: number;
  extras: Array<{ head: ExtraHead; paid: Paise }>;
  tillDate: HorizonTotals;
  annual: HorizonTotals;
  /** hundredths of a percent of the yearly heads that `tillDate` counts (all of them once the session has begun, a plan's parts under a plan) */
  yearlyShareDue: number;
  /** every live line of the session (excluding previous-balance lines) */
  totalPaid: Paise;
  monthlyPaid: Paise;
  yearlyPaid: Paise;
  extrasPaid: Paise;
  /** late fines paid (head `fine`): income, never a due of the structure */
  finePaid: Paise;
  /** payments for monthly heads naming a month outside the session (kept, never lost) */
  unplacedPaid: Paise;
  totalMonths: number;
  monthsPaid: number;
  monthsPending: number;
  /** monthly heads paid ÷ months with something recorded */
  averageMonthly: Paise;
  totalDiscount: Paise;
}

const p = (n: number) => paise(n);

function position(expected: Paise, paid: Paise, paidOn: string | null, concedeShortfall: boolean, grants: ConcessionShare[] = []): HeadPosition {
  const recorded = paid > 0;
  const granted = sumShares(grants);
  const net = expected - granted;
  const applied = p(Math.min(paid, net));
  const excess = p(paid - applied);
  const shortfall = p(net - applied);
  const concession = recorded && concedeShortfall ? shortfall : ZERO;
  return { expected, granted, grants, paid, applied, excess, concession, outstanding: p(shortfall - concession), recorded, paidOn };
}

function emptyTotals(): HorizonTotals {
  return {
    expected: ZERO,
    applied: ZERO,
    concessions: ZERO,
    granted: ZERO,
    outstanding: ZERO,
    monthlyExpected: ZERO,
    monthlyOutstanding: ZERO,
    yearlyExpected: ZERO,
    yearlyOutstanding: ZERO,
  };
}

function addMonth(t: HorizonTotals, m: MonthPosition): void {
  for (const h of [m.tuition, m.bus]) {
    t.expected = p(t.expected + h.expected);
    t.applied = p(t.applied + h.applied);
    t.concessions = p(t.concessions + h.concession + h.granted);
    t.granted = p(t.granted + h.granted);
    t.outstanding = p(t.outstanding + h.outstanding);
    t.monthlyExpected = p(t.monthlyExpected + h.expected);
    t.monthlyOutstanding = p(t.monthlyOutstanding + h.outstanding);
  }
}

/**
 * A yearly head into a horizon. `share` (hundredths of a percent) is the part of the head due by
 * then under an instalment plan; the whole head by default. The part received counts first against
 * what has fallen due, so a head paid ahead shows nothing outstanding.
 */
function addYearly(t: HorizonTotals, y: YearlyPosition, share = 10_000): void {
  // no closure here: this runs for every head of every session a refresh computes
  const expected = share === 10_000 ? y.expected : Math.floor((y.expected * share) / 10_000);
  const granted = share === 10_000 ? y.granted : Math.floor((y.granted * share) / 10_000);
  const applied = Math.min(y.applied, expected - granted);
  const outstanding = share === 10_000 ? y.outstanding : Math.max(0, expected - granted - y.applied);
  t.expected = p(t.expected + expected);
  t.applied = p(t.applied + applied);
  t.concessions = p(t.concessions + granted);
  t.granted = p(t.granted + granted);
  t.outstanding = p(t.outstanding + outstanding);
  t.yearlyExpected = p(t.yearlyExpected + expected);
  t.yearlyOutstanding = p(t.yearlyOutstanding + outstanding);
}

/** What the yearly heads owe once `share` (hundredths of a percent) of them has fallen due: the till-date figure of `computeSessionAccount`. */
export function yearlyOwedAt(yearly: readonly YearlyPosition[], share: number): Paise {
  if (share <= 0) return ZERO;
  const t = emptyTotals();
  for (const y of yearly) addYearly(t, y, Math.min(10_000, share));
  return t.yearlyOutstanding;
}

/**
 * The yearly heads at a horizon where `share` of them has fallen due (an instalment plan's split):
 * the gross part due, the part of the approved concessions, and what was received against that part,
 * each as `computeSessionAccount`'s till-date totals count them.
 */
export function yearlyPartsAt(yearly: readonly YearlyPosition[], share: number): { expected: Paise; granted: Paise; applied: Paise } {
  const t = emptyTotals();
  if (share > 0) for (const y of yearly) addYearly(t, y, Math.min(10_000, share));
  return { expected: t.yearlyExpected, granted: t.granted, applied: t.applied };
}

/** The share of the yearly heads due by `asOfMonth` (hundredths of a percent), as `computeSessionAccount` counts it. */
export function yearlyShareDue(months: readonly SessionMonth[], timing: DueTiming | null | undefined, asOfMonth: string): number {
  return timing?.yearlyParts.length
    ? timing.yearlyParts.filter((x) => x.dueMonth <= asOfMonth).reduce((s, x) => s + x.share, 0)
    : months.length > 0 && months[0]!.key <= asOfMonth
      ? 10_000
      : 0;
}

const later = (a: string | null, b: string) => (a === null || b > a ? b : a);

const NOTHING_PAID = { paid: 0, paidOn: null } as const;

/**
 * A monthly head of one month: `gross` is what it asks (nothing before the fees start). A function of
 * its own rather than a closure made per month: a refresh of a school runs it for every month of
 * every student, and a closure made there (and named, under the TypeScript loader) cost more than
 * the arithmetic.
 */
function monthHeadPosition(
  input: SessionAccountInput,
  monthly: ReadonlyMap<string, { paid: number; paidOn: string | null }>,
  head: MonthlyHead,
  key: string,
  gross: Paise,
): HeadPosition {
  const got = monthly.size === 0 ? NOTHING_PAID : (monthly.get(`${head}:${key}`) ?? NOTHING_PAID);
  return position(gross, p(got.paid), got.paidOn, true, concessionShares(input.concessions, head, key, gross));
}

export function computeSessionAccount(input: SessionAccountInput): SessionAccount {
  const monthly = new Map<string, { paid: number; paidOn: string | null }>();
  const yearlyPaid = new Map<YearlyHead, { paid: number; paidOn: string | null }>();
  const extrasPaid = new Map<ExtraHead, number>();
  const monthKeys = new Set(input.months.map((m) => m.key));
  let totalPaid = 0;
  let unplaced = 0;
  let finePaid = 0;

  for (const line of input.lines) {
    if (isBalanceHead(line.head)) continue;
    totalPaid += line.amount;
    if (line.head === 'fine') {
      finePaid += line.amount;
    } else if (isMonthlyHead(line.head)) {
      if (!line.period || !monthKeys.has(line.period)) {
        unplaced += line.amount;
        continue;
      }
      const key = `${line.head}:${line.period}`;
      const cur = monthly.get(key) ?? { paid: 0, paidOn: null };
      monthly.set(key, { paid: cur.paid + line.amount, paidOn: later(cur.paidOn, line.paidOn) });
    } else if (isYearlyHead(line.head)) {
      const cur = yearlyPaid.get(line.head) ?? { paid: 0, paidOn: null };
      yearlyPaid.set(line.head, { paid: cur.paid + line.amount, paidOn: later(cur.paidOn, line.paidOn) });
    } else {
      const head = line.head as ExtraHead;
      extrasPaid.set(head, (extrasPaid.get(head) ?? 0) + line.amount);
    }
  }

  const tuitionExpected = input.structure?.monthlyTuition ?? ZERO;
  const tillDate = emptyTotals();
  const annual = emptyTotals();
  let monthlyPaidTotal = 0;
  let monthsPaid = 0;
  let monthsRecorded = 0;
  let totalDiscount = 0;

  const months: MonthPosition[] = input.months.map((m) => {
    const due = (input.timing?.monthDue[m.key] ?? m.key) <= input.asOfMonth;
    const enrolled = !input.feesFrom || m.key >= input.feesFrom;
    const tuition = monthHeadPosition(input, monthly, 'tuition', m.key, enrolled ? tuitionExpected : ZERO);
    const bus = monthHeadPosition(input, monthly, 'bus', m.key, enrolled ? input.busFee : ZERO);
    const discount = p(tuition.concession + bus.concession);
    const outstanding = p(tuition.outstanding + bus.outstanding);
    const recorded = tuition.recorded || bus.recorded;
    let status: MonthStatus;
    if (recorded) status = outstanding === 0 ? 'Paid' : 'Partial';
    else if (due && tuition.expected + bus.expected > 0) status = 'Pending';
    else status = 'Not Recorded';
    const pos: MonthPosition = { key: m.key, month: m.month, year: m.year, due, tuition, bus, discount, outstanding, status };
    addMonth(annual, pos);
    if (due) addMonth(tillDate, pos);
    monthlyPaidTotal += tuition.paid + bus.paid;
    totalDiscount += discount;
    if (status === 'Paid') monthsPaid += 1;
    if (recorded) monthsRecorded += 1;
    return pos;
  });

  const shareDue = yearlyShareDue(input.months, input.timing, input.asOfMonth);
  let yearlyPaidTotal = 0;
  let yearlyPaidCount = 0;
  let yearlyApplicable = 0;
  const yearly: YearlyPosition[] = YEARLY_HEADS.map((head) => {
    const got = yearlyPaid.get(head) ?? { paid: 0, paidOn: null };
    const expected = input.structure?.yearly[head] ?? ZERO;
    const pos = position(expected, p(got.paid), got.paidOn, false, concessionShares(input.concessions, head, null, expected));
    const status: YearlyHeadStatus = pos.recorded ? 'paid' : expected > 0 ? 'pending' : 'not_applicable';
    const y: YearlyPosition = { ...pos, head, status };
    addYearly(annual, y);
    if (shareDue > 0) addYearly(tillDate, y, Math.min(10_000, shareDue));
    yearlyPaidTotal += got.paid;
    if (status !== 'not_applicable') yearlyApplicable += 1;
    if (status === 'paid') yearlyPaidCount += 1;
    return y;
  });
  const yearlyStatus = yearlyApplicable > 0 && yearlyPaidCount === yearlyApplicable ? 'paid' : yearlyPaidCount > 0 ? 'partial' : 'pending';

  const extras = EXTRA_HEADS.filter((h) => extrasPaid.has(h)).map((head) => ({ head, paid: p(extrasPaid.get(head)!) }));
  const extrasTotal = extras.reduce((s, e) => s + e.paid, 0);

  return {
    months,
    yearly,
    yearlyStatus,
    yearlyPaidCount,
    yearlyApplicableCount: yearlyApplicable,
    extras,
    tillDate,
    annual,
    yearlyShareDue: Math.min(10_000, shareDue),
    totalPaid: p(totalPaid),
    monthlyPaid: p(monthlyPaidTotal),
    yearlyPaid: p(yearlyPaidTotal),
    extrasPaid: p(extrasTotal),
    finePaid: p(finePaid),
    unplacedPaid: p(unplaced),
    totalMonths: months.length,
    monthsPaid,
    monthsPending: months.length - monthsPaid,
    averageMonthly: monthsRecorded > 0 ? p(Math.floor(monthlyPaidTotal / monthsRecorded)) : ZERO,
    totalDiscount: p(totalDiscount),
  };
}

// ---------------------------------------------------------------------------------------------
// Balances carried forward (ruling 9) and passout dues
// ---------------------------------------------------------------------------------------------

export interface CarriedBalance {
  /** the session the balance was left in */
  sessionId: string;
  academicYear: string;
  monthly: Paise;
  yearly: Paise;
}

export interface CarriedBalancePosition extends CarriedBalance {
  recorded: Paise;
  paid: Paise;
  monthlyRemaining: Paise;
  yearlyRemaining: Paise;
  remaining: Paise;
}

/**
 * What is left of each carried balance after the live previous-balance lines paid against it.
 * A payment settles the monthly part first, then the yearly part.
 */
export function carriedBalancePositions(rows: CarriedBalance[], paidBySession: ReadonlyMap<string, number>): CarriedBalancePosition[] {
  return rows.map((row) => ({ ...row, ...carriedPosition(row.monthly, row.yearly, paidBySession.get(row.sessionId) ?? 0) }));
}

/** One carried balance (its monthly and yearly parts) after `paidTowards` was paid against it: the rule of `carriedBalancePositions`, without a row to copy. */
export function carriedPosition(monthly: number, yearly: number, paidTowards: number): Pick<CarriedBalancePosition, 'recorded' | 'paid' | 'monthlyRemaining' | 'yearlyRemaining' | 'remaining'> {
  const recorded = p(monthly + yearly);
  const paid = p(Math.min(paidTowards, recorded));
  const toMonthly = Math.min(paid, monthly);
  const monthlyRemaining = p(monthly - toMonthly);
  const yearlyRemaining = p(yearly - (paid - toMonthly));
  return { recorded, paid, monthlyRemaining, yearlyRemaining, remaining: p(monthlyRemaining + yearlyRemaining) };
}

/**
 * Splits a payment towards carried balances over the open ones, oldest first. Returns null when
 * the payment is more than what is left: the ledger never carries a negative balance.
 */
export function allocateCarriedPayment(
  open: ReadonlyArray<{ sessionId: string; remaining: Paise }>,
  amount: Paise,
): Array<{ sessionId: string; amount: Paise }> | null {
  const total = open.reduce((s, r) => s + r.remaining, 0);
  if (amount <= 0 || amount > total) return null;
  const out: Array<{ sessionId: string; amount: Paise }> = [];
  let left = amount as number;
  for (const row of open) {
    if (left === 0) break;
    const take = Math.min(left, row.remaining);
    if (take > 0) out.push({ sessionId: row.sessionId, amount: p(take) });
    left -= take;
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Ruling 26: a fee cannot be paid twice
// ---------------------------------------------------------------------------------------------

/** A payment towards one head and period (a month for tuition and bus, null for a yearly head). */
export interface FeeClaim {
  head: FeeHead;
  period: string | null;
  amount: Paise;
}

/** What a head and period is due, and what the live ledger already holds against it. */
export interface HeadDue {
  head: FeeHead;
  period: string | null;
  due: Paise;
  received: Paise;
  /** due − received, never below zero */
  remaining: Paise;
}

/**
 * Heads that carry a due: tuition and bus per month, the five yearly heads per session. The extra
 * heads (laboratory, library, sports, other) have no amount in the class structure: the clerk raises
 * them at the counter, and the amount typed is both the charge and the payment (decision 0025).
 * Carried balances are capped by `allocateCarriedPayment`.
 */
export const hasDue = (head: FeeHead): head is MonthlyHead | YearlyHead => isMonthlyHead(head) || isYearlyHead(head);

/** The due of one head and period in a session account: the structure's amount less approved concessions. */
export function headDue(account: SessionAccount, head: MonthlyHead | YearlyHead, period: string | null): HeadDue {
  let pos: HeadPosition | undefined;
  if (isMonthlyHead(head)) {
    const month = account.months.find((m) => m.key === period);
    pos = month?.[head];
  } else {
    pos = account.yearly.find((y) => y.head === head);
  }
  // what may be received: the structure's due less approved concessions (issue 16)
  const due = p((pos?.expected ?? 0) - (pos?.granted ?? 0));
  const received = pos?.paid ?? ZERO;
  return { head, period: isMonthlyHead(head) ? period : null, due, received, remaining: p(Math.max(0, due - received)) };
}

export interface ClaimSplit {
  /** what fits under the dues, per claim */
  within: FeeClaim[];
  /** what goes beyond them: refused at the counter, credit when it arrived anyway (ruling 27) */
  excess: Array<FeeClaim & { due: HeadDue }>;
}

/**
 * Splits payments against what each head and period still has due, in the order given (several
 * claims for one head and period share its remaining due). Heads without a due pass through.
 */
export function splitAgainstDues(account: SessionAccount, claims: readonly FeeClaim[]): ClaimSplit {
  const left = new Map<string, HeadDue>();
  const within: FeeClaim[] = [];
  const excess: ClaimSplit['excess'] = [];
  for (const claim of claims) {
    if (!hasDue(claim.head)) {
      within.push(claim);
      continue;
    }
    const key = `${claim.head}:${isMonthlyHead(claim.head) ? claim.period : ''}`;
    const due = left.get(key) ?? headDue(account, claim.head, claim.period);
    const fits = Math.min(claim.amount, due.remaining);
    if (fits > 0) within.push({ ...claim, amount: p(fits) });
    if (claim.amount > fits) excess.push({ ...claim, amount: p(claim.amount - fits), due });
    left.set(key, { ...due, received: p(due.received + fits), remaining: p(due.remaining - fits) });
  }
  return { within, excess };
}

/** The first claim that would take a head and period past its due, or null when all fit. */
export function findOverpayment(account: SessionAccount, claims: readonly FeeClaim[]): (FeeClaim & { due: HeadDue }) | null {
  const { excess } = splitAgainstDues(account, claims);
  if (excess.length === 0) return null;
  const first = excess[0]!;
  // report the whole amount offered for that head and period, not only the part beyond the due
  const offered = claims
    .filter((c) => c.head === first.head && (c.period ?? null) === (first.period ?? null))
    .reduce((s, c) => s + c.amount, 0);
  return { ...first, amount: p(offered), due: headDue(account, first.head as MonthlyHead | YearlyHead, first.period) };
}

/**
 * Spreads a payment for a monthly head over the session's months, oldest first, each up to what it
 * still has due ("earliest unpaid month" on Record Fee Payment). Null when the payment is more than
 * every month has left together.
 */
export function allocateToMonths(account: SessionAccount, head: MonthlyHead, amount: Paise): FeeClaim[] | null {
  const out: FeeClaim[] = [];
  let left = amount as number;
  for (const m of account.months) {
    if (left === 0) break;
    const { remaining } = headDue(account, head, m.key);
    const take = Math.min(left, remaining);
    if (take > 0) out.push({ head, period: m.key, amount: p(take) });
    left -= take;
  }
  return left === 0 ? out : null;
}

/**
 * The 409 answer of ruling 26, naming the head and the month (or the session for a yearly head):
 * "Tuition Fee for April 2025 is already paid: ₹1,500.00 received of ₹1,500.00 due."
 */
export function overpaymentMessage(claim: FeeClaim & { due: HeadDue }, sessionName: string): string {
  const { due } = claim;
  const what = `${HEAD_LABELS[claim.head]} for ${due.period ? monthLabel(due.period) : sessionName}`;
  if (due.due === 0) return `${what}: nothing is due, so nothing can be received for it.`;
  if (due.remaining === 0) {
    return `${what} is already paid: ${formatINR(due.received)} received of ${formatINR(due.due)} due. A fee cannot be paid twice.`;
  }
  return `${what}: only ${formatINR(due.remaining)} is still due (${formatINR(due.received)} received of ${formatINR(due.due)}); ${formatINR(claim.amount)} is more than that.`;
}

/**
 * What each approved concession takes off the session, by concession id: the whole session
 * (`annual`) or the months due so far (`tillDate`, the horizon of fee status). The till-date figures
 * add up to `account.tillDate.granted` to the paisa: a yearly head counted in part under a plan
 * splits its part among its concessions with the paisa of rounding on the last one.
 */
export function grantsByConcession(account: SessionAccount, horizon: 'annual' | 'tillDate' = 'annual'): Map<string, Paise> {
  const out = new Map<string, Paise>();
  const put = (id: string, amount: number) => out.set(id, p((out.get(id) ?? 0) + amount));
  const add = (h: HeadPosition) => {
    for (const g of h.grants) put(g.concessionId, g.amount);
  };
  for (const m of account.months) {
    if (horizon === 'tillDate' && !m.due) continue;
    add(m.tuition);
    add(m.bus);
  }
  const share = horizon === 'annual' ? 10_000 : account.yearlyShareDue;
  for (const y of account.yearly) {
    if (share === 10_000) {
      add(y);
      continue;
    }
    if (share <= 0 || y.grants.length === 0) continue;
    const target = Math.floor((y.granted * share) / 10_000);
    let given = 0;
    y.grants.forEach((g, i) => {
      const amount = i === y.grants.length - 1 ? target - given : Math.floor((g.amount * share) / 10_000);
      given += amount;
      put(g.concessionId, amount);
    });
  }
  return out;
}
