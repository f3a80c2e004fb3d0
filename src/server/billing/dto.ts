import { z } from 'zod';
import { paise, toRupeeString } from '../../domain/money';
import type { subscriptionPayments } from '../db/schema';
import type { InvoiceRow } from '../invoices/issue';

/** One subscription payment as the Billing page and the portal's school page show it. */
export const paymentDto = z.object({
  id: z.string(),
  date: z.string().describe('when it was paid (an offline payment: the date received)'),
  amount: z.string().describe('rupees, GST included'),
  mode: z.enum(['online', 'cheque', 'neft', 'upi']),
  reference: z.string().nullable().describe('the provider payment id, or the cheque / bank / UPI reference'),
  plan: z.string(),
  billingCycle: z.enum(['monthly', 'yearly']),
  status: z.enum(['paid', 'refused']).describe('refused: paid against a quote that no longer held; to be refunded'),
});

export const invoiceDto = z.object({
  id: z.string(),
  number: z.string(),
  date: z.string(),
  total: z.string(),
  pdfUrl: z.string(),
});

export const billingDto = z.object({ payments: z.array(paymentDto), invoices: z.array(invoiceDto) });

type PaymentRow = typeof subscriptionPayments.$inferSelect;

export function toBillingDto({ payments, invoices }: { payments: PaymentRow[]; invoices: InvoiceRow[] }, pdfUrl: (id: string) => string) {
  return {
    payments: payments.map((p) => ({
      id: p.id,
      date: (p.paidAt ?? p.createdAt).toISOString(),
      amount: toRupeeString(paise(p.amountPaise)),
      mode: p.mode,
      reference: p.reference ?? p.paymentId,
      plan: p.planId,
      billingCycle: p.billingCycle,
      status: p.status === 'refused' ? ('refused' as const) : ('paid' as const),
    })),
    invoices: invoices.map((i) => ({
      id: i.id,
      number: i.number,
      date: i.issuedAt.toISOString(),
      total: toRupeeString(paise(i.totalPaise)),
      pdfUrl: pdfUrl(i.id),
    })),
  };
}
