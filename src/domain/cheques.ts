import { z } from 'zod';
import { rupeeInput } from './amount-input';

/**
 * Cheques received at the counter (issue 15 item 5, docs/decisions/0046): in hand → deposited →
 * cleared | bounced. A bounce cancels the receipt with a `bounced` marker, so every balance and
 * report that already handles cancellations re-opens the dues; bank charges become a new due.
 */
export const CHEQUE_STATUSES = ['in_hand', 'deposited', 'cleared', 'bounced'] as const;
export type ChequeStatus = (typeof CHEQUE_STATUSES)[number];

export const CHEQUE_STATUS_LABELS: Record<ChequeStatus, string> = {
  in_hand: 'In hand',
  deposited: 'Deposited',
  cleared: 'Cleared',
  bounced: 'Bounced',
};

/** Which status may follow which; cleared and bounced are final. */
export const CHEQUE_NEXT: Record<ChequeStatus, readonly ChequeStatus[]> = {
  in_hand: ['deposited', 'bounced'],
  deposited: ['cleared', 'bounced'],
  cleared: [],
  bounced: [],
};

export function canMoveCheque(from: ChequeStatus, to: ChequeStatus): boolean {
  return CHEQUE_NEXT[from].includes(to);
}

export function chequeMoveMessage(from: ChequeStatus, to: ChequeStatus): string {
  return `A cheque that is ${CHEQUE_STATUS_LABELS[from].toLowerCase()} cannot be marked ${CHEQUE_STATUS_LABELS[to].toLowerCase()}`;
}

const dateField = z.iso.date('date must be a date (YYYY-MM-DD)');

/** PUT /api/cheques/{receiptId}: deposited or cleared (a bounce has its own route with its reason). */
export const chequeStatusSchema = z.object({
  status: z.enum(['deposited', 'cleared'], { error: 'Status must be deposited or cleared' }),
  date: dateField.optional(),
});

export const bounceChequeSchema = z.object({
  reason: z
    .string({ error: 'Please enter why the cheque bounced' })
    .nullish()
    .transform((v) => (v ?? '').trim())
    .pipe(z.string().min(1, 'Please enter why the cheque bounced').max(500, 'The reason is too long (at most 500 characters)')),
  /** charged to the student as a new due; blank or 0: none */
  bankCharges: rupeeInput('Bank charges must be an amount in rupees, e.g. 250 or 250.50').optional(),
  date: dateField.optional(),
});

export const chequeQuerySchema = z.object({
  status: z.enum(CHEQUE_STATUSES).optional(),
  from: dateField.optional(),
  to: dateField.optional(),
});

export const chequeDto = z.object({
  receiptId: z.string(),
  receiptNumber: z.string(),
  receiptDate: z.string(),
  studentId: z.string(),
  studentName: z.string(),
  className: z.string(),
  chequeNumber: z.string().nullable(),
  bankName: z.string().nullable(),
  amount: z.string(),
  status: z.enum(CHEQUE_STATUSES),
  depositedOn: z.string().nullable(),
  clearedOn: z.string().nullable(),
  bouncedOn: z.string().nullable(),
  bounceReason: z.string().nullable(),
  bankCharges: z.string().nullable(),
  collectedBy: z.string(),
});
export type Cheque = z.infer<typeof chequeDto>;

// ---- cancellation register (issue 15 item 6) ----

export const cancellationQuerySchema = z.object({ from: dateField, to: dateField });

export const cancellationRowDto = z.object({
  receiptId: z.string(),
  receiptNumber: z.string(),
  receiptDate: z.string(),
  studentName: z.string(),
  className: z.string(),
  amount: z.string(),
  paymentMode: z.string(),
  cancelledAt: z.string(),
  cancelledBy: z.string(),
  reason: z.string(),
  collectedBy: z.string(),
  /** a bounced cheque's cancellation */
  bounced: z.boolean(),
});
export type CancellationRow = z.infer<typeof cancellationRowDto>;
