import { z } from 'zod';
import type { FeeStructureAmounts, HeadPosition, SessionAccount } from './fees';
import { MONTH_KEY_PATTERN, monthLabel, YEARLY_HEADS, type YearlyHead } from './ledger';
import { paise, type Paise } from './money';
import { isoDate, type SessionMonth } from './sessions';

/**
 * Instalment plans (issue 16, decision 0048). A class's fee structure (or the school's default) may
 * be collected monthly (today's behaviour and the default), quarterly, half-yearly or in custom
 * instalments with their own due dates. A plan only moves WHEN fees fall due: the amounts per head
 * stay those of the structure. Monthly heads are grouped by the months an instalment collects; the
 * yearly heads are split by percentage over the instalments (all in the first one unless a custom
 * plan says otherwise). The till-date outstanding counts what falls due by the current month, and
 * late fines run from each instalment's due date.
 */

export const PLAN_KINDS = ['monthly', 'quarterly', 'half_yearly', 'custom'] as const;
export type PlanKind = (typeof PLAN_KINDS)[number];
export const PLAN_KIND_LABELS: Record<PlanKind, string> = {
  monthly: 'Monthly',
  quarterly: 'Quarterly',
  half_yearly: 'Half-yearly',
  custom: 'Custom instalments',
};

export interface CustomInstalment {
  label: string;
  dueDate: string;
  /** the session months whose monthly heads this instalment collects */
  months: string[];
  /** hundredths of a percent of every yearly head */
  yearlyShare: number;
}

export interface InstalmentPlan {
  kind: PlanKind;
  /** day of the month an instalment falls due (not for custom plans) */
  dueDay: number;
  custom: CustomInstalment[];
}

export const DEFAULT_PLAN: InstalmentPlan = { kind: 'monthly', dueDay: 10, custom: [] };

/** PUT /api/instalment-plans/{className|default} */
export const instalmentPlanInput = z
  .object({
    kind: z.enum(PLAN_KINDS, { message: 'Plan must be monthly, quarterly, half_yearly or custom' }),
    dueDay: z.number().int().min(1, 'Due day must be between 1 and 28').max(28, 'Due day must be between 1 and 28').default(10),
    custom: z
      .array(
        z.object({
          label: z.string().trim().min(1, 'Name each instalment').max(40),
          dueDate: isoDate,
          months: z.array(z.string().regex(MONTH_KEY_PATTERN, 'Months must be YYYY-MM')),
          yearlyPercent: z.number().min(0).max(100).default(0),
        }),
      )
      .max(12, 'At most 12 instalments')
      .default([]),
  })
  .superRefine((v, ctx) => {
    if (v.kind !== 'custom') return;
    if (v.custom.length === 0) ctx.addIssue({ code: 'custom', path: ['custom'], message: 'Add the instalments of a custom plan' });
    const total = v.custom.reduce((s, c) => s + Math.round(c.yearlyPercent * 100), 0);
    if (total !== 10_000) ctx.addIssue({ code: 'custom', path: ['custom'], message: 'The yearly fee shares of the instalments must add up to 100%' });
  })
  .transform(
    (v): InstalmentPlan => ({
      kind: v.kind,
      dueDay: v.dueDay,
      custom: v.custom.map((c) => ({ label: c.label, dueDate: c.dueDate, months: c.months, yearlyShare: Math.round(c.yearlyPercent * 100) })),
    }),
  );

export interface Instalment {
  key: string;
  label: string;
  dueDate: string;
  months: string[];
  /** tuition and bus of its months, plus its share of each yearly head */
  tuition: Paise;
  bus: Paise;
  yearly: Record<YearlyHead, Paise>;
  total: Paise;
}

const dueOn = (month: string, day: number) => `${month}-${String(day).padStart(2, '0')}`;

/** Why a custom plan does not fit the session's months, or null when every month is collected once. */
export function planProblem(plan: InstalmentPlan, months: readonly SessionMonth[]): string | null {
  if (plan.kind !== 'custom') return null;
  const keys = months.map((m) => m.key);
  const seen = plan.custom.flatMap((c) => c.months);
  const missing = keys.filter((k) => !seen.includes(k));
  if (missing.length > 0) return `No instalment collects ${monthLabel(missing[0]!)}`;
  const twice = seen.find((k, i) => seen.indexOf(k) !== i);
  if (twice) return `${monthLabel(twice)} is in two instalments`;
  const outside = seen.find((k) => !keys.includes(k));
  if (outside) return `${monthLabel(outside)} is not a month of the session`;
  // the months fall due in their order (what running balances and reports rely on, decision 0048)
  const dueOf = new Map(plan.custom.flatMap((c) => c.months.map((m) => [m, c.dueDate] as const)));
  for (let i = 1; i < keys.length; i += 1) {
    if (dueOf.get(keys[i]!)! < dueOf.get(keys[i - 1]!)!) return `${monthLabel(keys[i]!)} would fall due before ${monthLabel(keys[i - 1]!)}: instalments collect the months in order`;
  }
  return null;
}

/**
 * The instalments of a session: due dates and amounts per head. The last instalment takes the
 * rounding remainder of a yearly head's split, so the parts always add up to the head.
 */
export function instalmentSchedule(
  structure: FeeStructureAmounts | null,
  plan: InstalmentPlan,
  session: { months: readonly SessionMonth[]; busFee: Paise },
): Instalment[] {
  const months = session.months.map((m) => m.key);
  let groups: Array<{ key: string; label: string; dueDate: string; months: string[]; share: number }>;
  if (plan.kind === 'custom' && planProblem(plan, session.months) === null) {
    groups = plan.custom.map((c, i) => ({ key: `I${i + 1}`, label: c.label, dueDate: c.dueDate, months: c.months, share: c.yearlyShare }));
  } else {
    const size = plan.kind === 'quarterly' ? 3 : plan.kind === 'half_yearly' ? 6 : 1;
    groups = [];
    for (let i = 0; i < months.length; i += size) {
      const part = months.slice(i, i + size);
      const n = groups.length + 1;
      const label = size === 1 ? monthLabel(part[0]!) : `${size === 3 ? 'Quarter' : 'Half'} ${n} (${monthLabel(part[0]!)} – ${monthLabel(part[part.length - 1]!)})`;
      groups.push({ key: size === 1 ? part[0]! : `${size === 3 ? 'Q' : 'H'}${n}`, label, dueDate: dueOn(part[0]!, plan.dueDay), months: part, share: i === 0 ? 10_000 : 0 });
    }
  }
  const tuition = structure?.monthlyTuition ?? 0;
  const given = Object.fromEntries(YEARLY_HEADS.map((h) => [h, 0])) as Record<YearlyHead, number>;
  return groups.map((g, i) => {
    const last = i === groups.length - 1;
    const yearly = Object.fromEntries(
      YEARLY_HEADS.map((h) => {
        const full = structure?.yearly[h] ?? 0;
        const part = last ? full - given[h] : Math.floor((full * g.share) / 10_000);
        given[h] += part;
        return [h, paise(part)];
      }),
    ) as Record<YearlyHead, Paise>;
    const t = paise(tuition * g.months.length);
    const b = paise(session.busFee * g.months.length);
    const total = paise(t + b + YEARLY_HEADS.reduce((s, h) => s + yearly[h], 0));
    return { key: g.key, label: g.label, dueDate: g.dueDate, months: g.months, tuition: t, bus: b, yearly, total };
  });
}

/**
 * What `computeSessionAccount` needs from a plan: the month in which each session month's fees fall
 * due, and the yearly heads' shares by the month they fall due.
 */
export interface DueTiming {
  monthDue: Record<string, string>;
  yearlyParts: Array<{ dueMonth: string; share: number }>;
}

export function dueTiming(schedule: readonly Instalment[], plan: InstalmentPlan): DueTiming {
  const monthDue: Record<string, string> = {};
  for (const inst of schedule) for (const m of inst.months) monthDue[m] = inst.dueDate.slice(0, 7);
  const yearlyParts =
    plan.kind === 'custom'
      ? plan.custom.map((c) => ({ dueMonth: c.dueDate.slice(0, 7), share: c.yearlyShare }))
      : schedule.length > 0
        ? [{ dueMonth: schedule[0]!.dueDate.slice(0, 7), share: 10_000 }]
        : [];
  return { monthDue, yearlyParts };
}

export const instalmentDto = z.object({
  key: z.string(),
  label: z.string(),
  dueDate: z.string(),
  months: z.array(z.string()),
  tuition: z.string(),
  bus: z.string(),
  yearly: z.record(z.enum(YEARLY_HEADS), z.string()),
  total: z.string(),
  /** its total less approved concessions */
  due: z.string(),
  paid: z.string(),
  outstanding: z.string(),
  /** its due date has come (as of today) */
  fallenDue: z.boolean(),
});

export const instalmentPlanDto = z.object({
  scope: z.string().describe('"default" or a class name'),
  kind: z.enum(PLAN_KINDS),
  dueDay: z.number().int(),
  custom: z.array(z.object({ label: z.string(), dueDate: z.string(), months: z.array(z.string()), yearlyPercent: z.number() })),
});

/**
 * The schedule of a plan that moves due dates, or null under the monthly plan (and under a custom
 * plan whose months are not this session's): callers pass null on
 * to `computeSessionAccount` and `fineInstalments`, so a school that never sets a plan computes
 * exactly what it computed before plans existed.
 */
export function planSchedule(
  structure: FeeStructureAmounts | null,
  plan: InstalmentPlan,
  session: { months: readonly SessionMonth[]; busFee: Paise },
): Instalment[] | null {
  // a custom plan names the months of the session it was set for; another session collects monthly
  if (plan.kind === 'monthly' || (plan.kind === 'custom' && planProblem(plan, session.months) !== null)) return null;
  return instalmentSchedule(structure, plan, session);
}

/** `timing` for `computeSessionAccount`: null under the monthly plan. */
export function planTiming(
  structure: FeeStructureAmounts | null,
  plan: InstalmentPlan,
  session: { months: readonly SessionMonth[]; busFee: Paise },
): DueTiming | null {
  const schedule = planSchedule(structure, plan, session);
  return schedule ? dueTiming(schedule, plan) : null;
}

/** The stored form of a plan back to what the PUT body says (percent, not hundredths). */
export function instalmentPlanToDto(scope: string, plan: InstalmentPlan): z.infer<typeof instalmentPlanDto> {
  return {
    scope,
    kind: plan.kind,
    dueDay: plan.dueDay,
    custom: plan.custom.map((c) => ({ label: c.label, dueDate: c.dueDate, months: c.months, yearlyPercent: c.yearlyShare / 100 })),
  };
}

export interface InstalmentPosition {
  instalment: Instalment;
  /** what may be received for it: its amount less approved concessions */
  due: Paise;
  /** received towards it */
  paid: Paise;
  /** still owed of it (a recorded month's shortfall is a discount, ruling 6, not owed) */
  outstanding: Paise;
  /** latest payment date among its heads */
  paidOn: string | null;
}

/**
 * What is paid and outstanding of each instalment, read from the session account (ruling 6): an
 * instalment holds the monthly heads of its months and its part of each yearly head. A yearly
 * head's payments count against its earliest parts first, and its approved concession is spread
 * over the parts in proportion, so the parts' outstanding add up to the head's.
 * `heads`: only these heads (a late fine's); every head by default.
 */
export function instalmentPositions(schedule: readonly Instalment[], account: SessionAccount, heads?: ReadonlySet<string>): InstalmentPosition[] {
  const counts = (h: string) => !heads || heads.has(h);
  const byMonth = new Map(account.months.map((m) => [m.key, m]));
  const yearly = account.yearly.filter((y) => counts(y.head));
  const gross = new Map<string, number>();
  const owedBefore = new Map<string, number>();
  const appliedBefore = new Map<string, number>();
  return schedule.map((instalment) => {
    let due = 0;
    let paid = 0;
    let outstanding = 0;
    const dates: string[] = [];
    const take = (h: HeadPosition) => {
      due += h.expected - h.granted;
      paid += h.applied;
      outstanding += h.outstanding;
      if (h.paidOn) dates.push(h.paidOn);
    };
    for (const key of instalment.months) {
      const m = byMonth.get(key);
      if (!m) continue;
      if (counts('tuition')) take(m.tuition);
      if (counts('bus')) take(m.bus);
    }
    for (const y of yearly) {
      const part = instalment.yearly[y.head];
      if (part <= 0 || y.expected <= 0) continue;
      const cumGross = (gross.get(y.head) ?? 0) + part;
      gross.set(y.head, cumGross);
      const cumGranted = cumGross >= y.expected ? y.granted : Math.floor((y.granted * cumGross) / y.expected);
      const cumNet = cumGross - cumGranted;
      const cumApplied = Math.min(y.applied, cumNet);
      const cumOwed = cumGross >= y.expected ? y.outstanding : Math.max(0, cumNet - y.applied);
      const grantedBefore = cumGross - part >= y.expected ? y.granted : Math.floor((y.granted * (cumGross - part)) / y.expected);
      due += part - (cumGranted - grantedBefore);
      paid += cumApplied - (appliedBefore.get(y.head) ?? 0);
      outstanding += cumOwed - (owedBefore.get(y.head) ?? 0);
      appliedBefore.set(y.head, cumApplied);
      owedBefore.set(y.head, cumOwed);
      if (y.paidOn) dates.push(y.paidOn);
    }
    return { instalment, due: paise(due), paid: paise(paid), outstanding: paise(outstanding), paidOn: dates.sort().pop() ?? null };
  });
}
