import { z } from 'zod';
import { amountProblemMessage, readAmount } from '@/domain/amount-input';
import { HEAD_LABELS, monthLabel, type FeeHead } from '@/domain/ledger';
import { parseRupees, toRupeeString, type Paise } from '@/domain/money';
import type { FeeStatusPanelProps } from '@/web/app/feature-slots';
import { CREDIT_TEXTS, LINK_TEXTS } from './texts';

/** A fee a link (or applied credit) can be for, with what is due on it now. */
export interface FeeChoice {
  feeType: string;
  label: string;
  /** monthly heads: the months with something still due */
  months: Array<{ key: string; label: string; due: string }>;
  /** for yearly heads and the previous balance; for monthly heads see `months` */
  due: string | null;
}

const owed = (amount: string) => (parseRupees(amount) ?? 0) > 0;

/** The fees of this student that still have something due, as Fee Status computed it. */
export function feeChoices(status: Pick<FeeStatusPanelProps, 'account' | 'previousBalance' | 'ledger'>, withOutstanding: boolean): FeeChoice[] {
  const choices: FeeChoice[] = [];
  if (withOutstanding) choices.push({ feeType: 'outstanding', label: LINK_TEXTS.outstanding, months: [], due: status.ledger.outstandingTillDate });
  for (const head of ['tuition', 'bus'] as const) {
    const months = status.account.months
      .filter((m) => m.due && owed(m[head].outstanding))
      .map((m) => ({ key: m.key, label: m.label || monthLabel(m.key), due: m[head].outstanding }));
    if (months.length > 0) choices.push({ feeType: head, label: HEAD_LABELS[head], months, due: null });
  }
  for (const h of status.account.yearly.heads) {
    if (h.status !== 'not_applicable' && owed(h.outstanding)) choices.push({ feeType: h.head, label: h.label || HEAD_LABELS[h.head as FeeHead], months: [], due: h.outstanding });
  }
  if (owed(status.previousBalance.balance)) choices.push({ feeType: 'previous_balance', label: HEAD_LABELS.previous_balance, months: [], due: status.previousBalance.balance });
  return choices;
}

export function dueOf(choice: FeeChoice | undefined, month: string): string | null {
  if (!choice) return null;
  if (choice.months.length > 0) return choice.months.find((m) => m.key === month)?.due ?? null;
  return choice.due;
}

/** A typed rupee amount by the one rule (decision 0033), as a wire string; blank stays blank. */
const amountText = (label: string, required: boolean) =>
  z.string().superRefine((text, ctx) => {
    const read = readAmount(text);
    if (!read.ok) ctx.addIssue({ code: 'custom', message: amountProblemMessage(label, read.problem) });
    else if (read.value === null && required) ctx.addIssue({ code: 'custom', message: `${label} is required` });
    else if (read.value !== null && read.value <= 0) ctx.addIssue({ code: 'custom', message: LINK_TEXTS.amountPositive });
  });

export const wireAmount = (text: string): string | undefined => {
  const read = readAmount(text);
  return read.ok && read.value !== null ? toRupeeString(read.value) : undefined;
};

export const createLinkSchema = z
  .object({
    feeType: z.string().min(1),
    feeMonth: z.string(),
    amount: amountText('Amount', false),
    expiresInDays: z.string().regex(/^\d{1,3}$/, LINK_TEXTS.daysRange).refine((d) => Number(d) >= 1 && Number(d) <= 180, LINK_TEXTS.daysRange),
    description: z.string().trim().max(200, LINK_TEXTS.descriptionLong),
  })
  .superRefine((v, ctx) => {
    if ((v.feeType === 'tuition' || v.feeType === 'bus') && !v.feeMonth) ctx.addIssue({ code: 'custom', path: ['feeMonth'], message: LINK_TEXTS.chooseMonth });
  });
export type CreateLinkForm = z.input<typeof createLinkSchema>;

export const applyCreditSchema = (balance: Paise) =>
  z
    .object({ feeType: z.string().min(1), feeMonth: z.string(), amount: amountText('Amount', true) })
    .superRefine((v, ctx) => {
      if ((v.feeType === 'tuition' || v.feeType === 'bus') && !v.feeMonth) ctx.addIssue({ code: 'custom', path: ['feeMonth'], message: LINK_TEXTS.chooseMonth });
      const read = readAmount(v.amount);
      if (read.ok && read.value !== null && read.value > balance) ctx.addIssue({ code: 'custom', path: ['amount'], message: CREDIT_TEXTS.overBalance });
    });

export const refundCreditSchema = (balance: Paise) =>
  z
    .object({
      amount: amountText('Amount', true),
      mode: z.enum(['cash', 'upi', 'bank_transfer', 'cheque']),
      reason: z.string().trim().min(1, CREDIT_TEXTS.reasonRequired).max(300, CREDIT_TEXTS.reasonLong),
    })
    .superRefine((v, ctx) => {
      const read = readAmount(v.amount);
      if (read.ok && read.value !== null && read.value > balance) ctx.addIssue({ code: 'custom', path: ['amount'], message: CREDIT_TEXTS.overBalance });
    });
