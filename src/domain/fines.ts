import { z } from 'zod';
import { readAmount } from './amount-input';
import { CONCESSION_HEADS, type ConcessionHead } from './concessions';
import type { HeadPosition, SessionAccount } from './fees';
import { instalmentPositions, type Instalment } from './instalments';
import { monthLabel } from './ledger';
import { formatINR, paise, toRupeeString, type Paise } from './money';

/**
 * Late fines (issue 16). A school's rule says from which day of an instalment's due date a fine runs
 * (due day + grace days) and how much: per day late, a flat amount, or slabs ("after 10 days ₹50,
 * after 30 days ₹100"), with caps per instalment (month) and per session, on the heads it names.
 * The fine is computed, never stored: the same pure function gives today's fine on fee status,
 * Record Fee Payment, defaulters and the payment link. Only a fine paid (ledger head `fine`) and a
 * fine waived (approved, per instalment) are written.
 */

export const FINE_MODES = ['per_day', 'flat', 'slab'] as const;
export type FineMode = (typeof FINE_MODES)[number];
export const FINE_MODE_LABELS: Record<FineMode, string> = { per_day: 'Per day late', flat: 'Flat amount once late', slab: 'Slabs by days late' };

export const FINE_WAIVER_STATUSES = ['requested', 'approved', 'rejected'] as const;
export type FineWaiverStatus = (typeof FINE_WAIVER_STATUSES)[number];
export const FINE_WAIVER_STATUS_LABELS: Record<FineWaiverStatus, string> = { requested: 'Awaiting approval', approved: 'Waived', rejected: 'Rejected' };

export interface FineSlab {
  /** the slab applies once the instalment is more than this many days late */
  afterDays: number;
  amount: Paise;
}

export interface LateFineRule {
  enabled: boolean;
  /** day of the month the monthly fee falls due (1–28); instalment plans carry their own due dates */
  dueDay: number;
  graceDays: number;
  mode: FineMode;
  /** per day, or the flat amount */
  amount: Paise;
  slabs: FineSlab[];
  capPerMonth: Paise | null;
  capPerSession: Paise | null;
  heads: ConcessionHead[];
}

export const DEFAULT_LATE_FINE_RULE: LateFineRule = {
  enabled: false,
  dueDay: 10,
  graceDays: 0,
  mode: 'per_day',
  amount: paise(0),
  slabs: [],
  capPerMonth: null,
  capPerSession: null,
  heads: ['tuition', 'bus'],
};

const rupeeField = (label: string, { allowZero }: { allowZero: boolean }) =>
  z.union([z.string(), z.number()]).transform((value, ctx): Paise => {
    const reading = readAmount(value);
    if (!reading.ok || reading.value === null || (!allowZero && reading.value === 0)) {
      ctx.addIssue({ code: 'custom', message: `${label} must be a rupee amount${allowZero ? '' : ' above 0'}, e.g. 10 or 10.50` });
      return z.NEVER;
    }
    return reading.value;
  });

const optionalCap = (label: string) =>
  z
    .union([z.string(), z.number()])
    .nullish()
    .transform((value, ctx): Paise | null => {
      if (value === null || value === undefined || String(value).trim() === '') return null;
      const reading = readAmount(value);
      if (!reading.ok || reading.value === null || reading.value === 0) {
        ctx.addIssue({ code: 'custom', message: `${label} must be a rupee amount above 0, or empty for no cap` });
        return z.NEVER;
      }
      return reading.value;
    });

/** PUT /api/fee-rules/late-fine (amounts as rupee strings). */
export const lateFineRuleInput = z
  .object({
    enabled: z.boolean(),
    dueDay: z.number().int().min(1, 'Due day must be between 1 and 28').max(28, 'Due day must be between 1 and 28'),
    graceDays: z.number().int().min(0, 'Grace days cannot be negative').max(90, 'Grace days can be at most 90'),
    mode: z.enum(FINE_MODES, { message: 'Mode must be per_day, flat or slab' }),
    amount: rupeeField('Fine amount', { allowZero: true }).optional(),
    slabs: z
      .array(z.object({ afterDays: z.number().int().min(0).max(366), amount: rupeeField('Slab amount', { allowZero: false }) }))
      .max(10, 'At most 10 slabs')
      .optional(),
    capPerMonth: optionalCap('Cap per month'),
    capPerSession: optionalCap('Cap per session'),
    heads: z.array(z.enum(CONCESSION_HEADS)).min(1, 'Choose at least one fee head the fine applies to'),
  })
  .transform((v, ctx): LateFineRule => {
    const amount = v.amount ?? paise(0);
    const slabs = [...(v.slabs ?? [])].sort((a, b) => a.afterDays - b.afterDays);
    if (v.enabled && v.mode !== 'slab' && amount === 0) ctx.addIssue({ code: 'custom', path: ['amount'], message: 'Enter the fine amount' });
    if (v.enabled && v.mode === 'slab' && slabs.length === 0) ctx.addIssue({ code: 'custom', path: ['slabs'], message: 'Add at least one slab' });
    if (new Set(slabs.map((s) => s.afterDays)).size !== slabs.length) ctx.addIssue({ code: 'custom', path: ['slabs'], message: 'Two slabs start on the same day' });
    return { ...v, amount, slabs, heads: [...new Set(v.heads)] };
  });

export const lateFineRuleDto = z.object({
  enabled: z.boolean(),
  dueDay: z.number().int(),
  graceDays: z.number().int(),
  mode: z.enum(FINE_MODES),
  amount: z.string(),
  slabs: z.array(z.object({ afterDays: z.number().int(), amount: z.string() })),
  capPerMonth: z.string().nullable(),
  capPerSession: z.string().nullable(),
  heads: z.array(z.enum(CONCESSION_HEADS)),
});
export type LateFineRuleDto = z.infer<typeof lateFineRuleDto>;

export function lateFineRuleToDto(r: LateFineRule): LateFineRuleDto {
  return {
    ...r,
    amount: toRupeeString(r.amount),
    slabs: r.slabs.map((s) => ({ afterDays: s.afterDays, amount: toRupeeString(s.amount) })),
    capPerMonth: r.capPerMonth === null ? null : toRupeeString(r.capPerMonth),
    capPerSession: r.capPerSession === null ? null : toRupeeString(r.capPerSession),
  };
}

/** POST /api/fine-waivers: waive the fine of one instalment (`2025-04` for a month). */
export const fineWaiverRequestInput = z.object({
  studentId: z.string().trim().min(1, 'Choose a student'),
  academicYear: z.string().trim().min(1, 'Choose the academic session'),
  instalment: z.string().trim().min(1, 'Choose the month or instalment whose fine is waived').max(40),
  reason: z.string().trim().min(3, 'Give a reason for the waiver').max(500, 'Reason can be at most 500 characters'),
});
export type FineWaiverRequestInput = z.infer<typeof fineWaiverRequestInput>;

export const fineLineDto = z.object({
  instalment: z.string(),
  label: z.string(),
  dueDate: z.string(),
  daysLate: z.number().int(),
  amount: z.string().describe('the fine of this instalment after caps and waiver'),
  waived: z.boolean(),
  explanation: z.string(),
});
export const fineSummaryDto = z.object({
  asOf: z.string(),
  enabled: z.boolean(),
  accrued: z.string().describe('fines of the session after caps, before waivers'),
  waived: z.string(),
  paid: z.string(),
  due: z.string().describe('what is owed today: accrued − waived − paid'),
  lines: z.array(fineLineDto),
  explanation: z.string(),
});
export type FineSummaryDto = z.infer<typeof fineSummaryDto>;

// ---------------------------------------------------------------------------------------------
// The rule
// ---------------------------------------------------------------------------------------------

/** One instalment as the fine sees it: when it fell due and when (if ever) it was settled. */
export interface FineInstalment {
  key: string;
  label: string;
  /** YYYY-MM-DD */
  dueDate: string;
  /** what of the fined heads is still unpaid as of the date (after concessions) */
  unpaid: Paise;
  /** the date the fined heads were fully paid, if they were paid after falling due; null when unpaid */
  settledOn: string | null;
}

export interface FineLine {
  instalment: string;
  label: string;
  dueDate: string;
  daysLate: number;
  /** after the per-month and session caps */
  amount: Paise;
  waived: boolean;
  explanation: string;
}

export interface FineResult {
  asOf: string;
  lines: FineLine[];
  /** before waivers */
  accrued: Paise;
  waived: Paise;
  paid: Paise;
  due: Paise;
  explanation: string;
}

const DAY = 86_400_000;
const dayNumber = (iso: string) => Date.UTC(Number(iso.slice(0, 4)), Number(iso.slice(5, 7)) - 1, Number(iso.slice(8, 10))) / DAY;

/** `2025-04` with due day 10 → `2025-04-10` */
export const monthDueDate = (monthKey: string, dueDay: number) => `${monthKey}-${String(dueDay).padStart(2, '0')}`;

function fineFor(rule: LateFineRule, daysLate: number): { amount: number; how: string } {
  if (rule.mode === 'per_day') return { amount: daysLate * rule.amount, how: `${daysLate} day${daysLate === 1 ? '' : 's'} × ${formatINR(rule.amount)} = ${formatINR(paise(daysLate * rule.amount))}` };
  if (rule.mode === 'flat') return { amount: rule.amount, how: `${daysLate} day${daysLate === 1 ? '' : 's'} late: flat ${formatINR(rule.amount)}` };
  const slab = [...rule.slabs].reverse().find((s) => daysLate > s.afterDays);
  if (!slab) return { amount: 0, how: `${daysLate} days late: below the first slab` };
  return { amount: slab.amount, how: `${daysLate} days late (more than ${slab.afterDays}): ${formatINR(slab.amount)}` };
}

/**
 * A student's late fine as of `asOf`. An instalment is late from the day after its due date plus
 * grace; days are counted from its due date (so "grace 5, paid on day 12" is 12 days late) until it
 * was settled or `asOf`. An instalment paid within grace carries no fine; one paid late keeps the
 * fine it had reached when it was paid. Caps: per instalment, then per session in due-date order.
 * Waived instalments are listed with their fine but count in `waived`, not in `due`.
 */
export function computeLateFine(input: {
  rule: LateFineRule;
  instalments: readonly FineInstalment[];
  asOf: string;
  waivedKeys?: ReadonlySet<string>;
  paid?: Paise;
}): FineResult {
  const { rule, asOf } = input;
  const lines: FineLine[] = [];
  let accrued = 0;
  let waived = 0;
  if (rule.enabled) {
    const ordered = [...input.instalments].sort((a, b) => (a.dueDate < b.dueDate ? -1 : a.dueDate > b.dueDate ? 1 : 0));
    for (const inst of ordered) {
      const until = inst.settledOn ?? (inst.unpaid > 0 ? asOf : null);
      if (!until) continue;
      const days = dayNumber(until) - dayNumber(inst.dueDate);
      if (days <= rule.graceDays) continue;
      const { amount: raw, how } = fineFor(rule, days);
      let amount = raw;
      let explanation = `${inst.label}: ${how}`;
      if (rule.capPerMonth !== null && amount > rule.capPerMonth) {
        amount = rule.capPerMonth;
        explanation += `, capped at ${formatINR(rule.capPerMonth)}`;
      }
      if (rule.capPerSession !== null && accrued + amount > rule.capPerSession) {
        amount = Math.max(0, rule.capPerSession - accrued);
        explanation += `, ${formatINR(paise(amount))} within the session cap of ${formatINR(rule.capPerSession)}`;
      }
      if (amount <= 0) continue;
      const isWaived = input.waivedKeys?.has(inst.key) ?? false;
      if (isWaived) explanation += ' (waived)';
      accrued += amount;
      if (isWaived) waived += amount;
      lines.push({ instalment: inst.key, label: inst.label, dueDate: inst.dueDate, daysLate: days, amount: paise(amount), waived: isWaived, explanation });
    }
  }
  const paidAmount = input.paid ?? paise(0);
  const due = Math.max(0, accrued - waived - paidAmount);
  const explanation = lines.length === 0 ? 'No late fine.' : lines.map((l) => l.explanation).join('; ');
  return { asOf, lines, accrued: paise(accrued), waived: paise(waived), paid: paidAmount, due: paise(due), explanation };
}

export function fineSummaryToDto(r: FineResult, enabled: boolean): FineSummaryDto {
  return {
    asOf: r.asOf,
    enabled,
    accrued: toRupeeString(r.accrued),
    waived: toRupeeString(r.waived),
    paid: toRupeeString(r.paid),
    due: toRupeeString(r.due),
    explanation: r.explanation,
    lines: r.lines.map((l) => ({ ...l, amount: toRupeeString(l.amount) })),
  };
}

/**
 * The instalments a fine looks at, from a session account under the monthly plan: each month's
 * fined monthly heads fall due on the rule's due day of that month, the fined yearly heads on the
 * due day of the session's first month. Outstanding (after concessions and discounts) is what is
 * unpaid; a head settled late is settled on its latest payment date.
 */
export function fineInstalments(account: SessionAccount, rule: LateFineRule, schedule?: readonly Instalment[] | null): FineInstalment[] {
  if (schedule) return planFineInstalments(account, rule, schedule);
  const fined = new Set<string>(rule.heads);
  const out: FineInstalment[] = [];
  const settle = (heads: HeadPosition[], key: string, label: string, dueDate: string) => {
    if (heads.length === 0 || heads.every((h) => h.expected - h.granted <= 0)) return;
    const unpaid = heads.reduce((s, h) => s + h.outstanding, 0);
    const paidOn = heads.map((h) => h.paidOn).filter((d): d is string => d !== null).sort().pop() ?? null;
    out.push({ key, label, dueDate, unpaid: paise(unpaid), settledOn: unpaid === 0 ? paidOn : null });
  };
  for (const m of account.months) {
    const heads = (['tuition', 'bus'] as const).filter((h) => fined.has(h)).map((h) => m[h]);
    settle(heads, m.key, monthLabel(m.key).replace(/^(\w{3})\w*/, '$1'), monthDueDate(m.key, rule.dueDay));
  }
  const first = account.months[0];
  if (first) {
    const yearly = account.yearly.filter((y) => fined.has(y.head));
    settle(yearly, 'yearly', 'Yearly fees', monthDueDate(first.key, rule.dueDay));
  }
  return out;
}

/**
 * The instalments a fine looks at under a plan other than monthly (decision 0048): the plan's own
 * instalments (`Q1`, `H2`, `I1`), each due on its due date, holding the fined monthly heads of its
 * months and its part of each fined yearly head (`instalmentPositions`).
 */
function planFineInstalments(account: SessionAccount, rule: LateFineRule, schedule: readonly Instalment[]): FineInstalment[] {
  return instalmentPositions(schedule, account, new Set<string>(rule.heads))
    .filter((p) => p.due > 0)
    .map((p) => ({ key: p.instalment.key, label: p.instalment.label, dueDate: p.instalment.dueDate, unpaid: p.outstanding, settledOn: p.outstanding === 0 ? p.paidOn : null }));
}
