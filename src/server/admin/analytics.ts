import { paise, type Paise } from '../../domain/money';

/**
 * The Analytics tab's figures (ruling 22, decision 0035), pure: the route reads the rows, this
 * turns them into months and weeks as India counts them (Asia/Kolkata, Monday-first weeks).
 * Money stays in paise; revenue is what the schools paid less GST (the business's income).
 */

const IST_MS = 330 * 60_000;
const DAY_MS = 86_400_000;

export interface PaidPayment {
  schoolId: string;
  planId: string;
  billingCycle: 'monthly' | 'yearly';
  /** paid less GST */
  netPaise: number;
  paidAt: Date;
  periodStart: Date | null;
  periodEnd: Date | null;
}

export interface SchoolFacts {
  id: string;
  createdAt: Date;
  status: 'trial' | 'active' | 'expired' | 'cancelled';
  plan: string;
  /** end of everything paid for (a queued plan included); null when nothing is */
  paidUntil: Date | null;
  hasPaid: boolean;
}

export interface PlanPrice {
  id: string;
  name: string;
  monthlyPricePaise: number;
  yearlyPricePaise: number;
}

/** `2026-11` for an instant, in India time. */
export function indiaMonthKey(at: Date): string {
  return new Date(at.getTime() + IST_MS).toISOString().slice(0, 7);
}

/** The India date of an instant, `YYYY-MM-DD`. */
function indiaDate(at: Date): string {
  return new Date(at.getTime() + IST_MS).toISOString().slice(0, 10);
}

/** The Monday (India date) of the week an instant falls in. */
export function indiaWeekStart(at: Date): string {
  const d = new Date(`${indiaDate(at)}T00:00:00.000Z`);
  const back = (d.getUTCDay() + 6) % 7;
  return new Date(d.getTime() - back * DAY_MS).toISOString().slice(0, 10);
}

/** The instant an India month begins. */
function monthStart(key: string): Date {
  return new Date(`${key}-01T00:00:00+05:30`);
}

function previousMonths(now: Date, count: number): string[] {
  const [y, m] = indiaMonthKey(now).split('-').map(Number) as [number, number];
  const keys: string[] = [];
  for (let i = count - 1; i >= 0; i--) {
    const total = y * 12 + (m - 1) - i;
    keys.push(`${Math.floor(total / 12)}-${String((total % 12) + 1).padStart(2, '0')}`);
  }
  return keys;
}

function nextMonthKey(key: string): string {
  const [y, m] = key.split('-').map(Number) as [number, number];
  return m === 12 ? `${y + 1}-01` : `${y}-${String(m + 1).padStart(2, '0')}`;
}

function previousWeeks(now: Date, count: number): string[] {
  const monday = new Date(`${indiaWeekStart(now)}T00:00:00.000Z`).getTime();
  const keys: string[] = [];
  for (let i = count - 1; i >= 0; i--) keys.push(new Date(monday - i * 7 * DAY_MS).toISOString().slice(0, 10));
  return keys;
}

/** One decimal place of a share, e.g. 33.3; 0 when there is nothing to divide by. */
function percent(part: number, whole: number): number {
  if (whole <= 0) return 0;
  return Math.round((part * 1000) / whole) / 10;
}

/** What one paying school brings in a month: the monthly price, or a twelfth of the yearly one (half-up, in paise). */
export function monthlyValue(plan: PlanPrice, cycle: 'monthly' | 'yearly'): Paise {
  return cycle === 'monthly' ? paise(plan.monthlyPricePaise) : paise(Math.floor((plan.yearlyPricePaise + 6) / 12));
}

export interface Analytics {
  mrr: Paise;
  arr: Paise;
  payingSchools: number;
  revenueLast12Months: Paise;
  trialToPaidPercent: number;
  revenueByMonth: Array<{ month: string; revenue: Paise; payments: number }>;
  signupsByWeek: Array<{ weekStart: string; signups: number; converted: number; conversionPercent: number }>;
  churnByMonth: Array<{ month: string; payingAtStart: number; churned: number; churnPercent: number }>;
  planMix: Array<{ plan: string; name: string; schools: number; mrr: Paise }>;
}

export function computeAnalytics(input: { now: Date; schools: SchoolFacts[]; payments: PaidPayment[]; plans: PlanPrice[] }): Analytics {
  const { now, schools, payments, plans } = input;
  const planById = new Map(plans.map((p) => [p.id, p]));

  // the billing cycle a school pays in is that of its latest paid order
  const lastCycle = new Map<string, 'monthly' | 'yearly'>();
  for (const p of [...payments].sort((a, b) => a.paidAt.getTime() - b.paidAt.getTime())) lastCycle.set(p.schoolId, p.billingCycle);

  // MRR: schools whose paid plan is running and will renew (cancelled ones will not)
  const mix = new Map<string, { schools: number; mrr: number }>();
  let mrr = 0;
  let paying = 0;
  for (const s of schools) {
    if (s.status !== 'active' || !s.paidUntil || s.paidUntil <= now) continue;
    const plan = planById.get(s.plan);
    if (!plan) continue;
    // a plan set by the administrator without an order on record counts as yearly, the portal's default
    const value = monthlyValue(plan, lastCycle.get(s.id) ?? 'yearly');
    mrr += value;
    paying += 1;
    const entry = mix.get(s.plan) ?? { schools: 0, mrr: 0 };
    entry.schools += 1;
    entry.mrr += value;
    mix.set(s.plan, entry);
  }

  const months = previousMonths(now, 12);
  const revenue = new Map(months.map((m) => [m, { revenue: 0, payments: 0 }]));
  for (const p of payments) {
    const bucket = revenue.get(indiaMonthKey(p.paidAt));
    if (!bucket || p.paidAt > now) continue;
    bucket.revenue += p.netPaise;
    bucket.payments += 1;
  }

  const weeks = previousWeeks(now, 12);
  const signups = new Map(weeks.map((w) => [w, { signups: 0, converted: 0 }]));
  for (const s of schools) {
    const bucket = signups.get(indiaWeekStart(s.createdAt));
    if (!bucket) continue;
    bucket.signups += 1;
    if (s.hasPaid) bucket.converted += 1;
  }
  // of every school whose trial is over (or that paid during it), the share that paid
  const decided = schools.filter((s) => s.hasPaid || s.status !== 'trial' || s.createdAt.getTime() < now.getTime() - 5 * DAY_MS);
  const trialToPaidPercent = percent(decided.filter((s) => s.hasPaid).length, decided.length);

  // churn: of the schools paying when a month began, those whose paid time ran out in it and stayed out
  const churnByMonth = months.map((month, i) => {
    const start = monthStart(month);
    const end = monthStart(months[i + 1] ?? nextMonthKey(month));
    const payingAtStart = new Set(
      payments.filter((p) => p.periodStart && p.periodEnd && p.periodStart <= start && p.periodEnd >= start).map((p) => p.schoolId),
    );
    const churned = schools.filter(
      (s) => s.hasPaid && s.paidUntil && s.paidUntil >= start && s.paidUntil < end && s.paidUntil <= now && payingAtStart.has(s.id),
    ).length;
    return { month, payingAtStart: payingAtStart.size, churned, churnPercent: percent(churned, payingAtStart.size) };
  });

  return {
    mrr: paise(mrr),
    arr: paise(mrr * 12),
    payingSchools: paying,
    revenueLast12Months: paise([...revenue.values()].reduce((sum, b) => sum + b.revenue, 0)),
    trialToPaidPercent,
    revenueByMonth: months.map((month) => ({ month, revenue: paise(revenue.get(month)!.revenue), payments: revenue.get(month)!.payments })),
    signupsByWeek: weeks.map((weekStart) => {
      const b = signups.get(weekStart)!;
      return { weekStart, signups: b.signups, converted: b.converted, conversionPercent: percent(b.converted, b.signups) };
    }),
    churnByMonth,
    planMix: plans.map((p) => ({ plan: p.id, name: p.name, schools: mix.get(p.id)?.schools ?? 0, mrr: paise(mix.get(p.id)?.mrr ?? 0) })),
  };
}
