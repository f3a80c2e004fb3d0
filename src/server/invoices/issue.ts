import { and, desc, eq, sql } from 'drizzle-orm';
import { financialYear, invoiceNumber, isIntraState, taxLines } from '../../domain/invoices';
import { paise } from '../../domain/money';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { invoiceCounters, invoices, subscriptionPayments } from '../db/schema';
import { indiaDate, paymentReceivedMail } from '../billing/mails';
import { formatDateIN } from '../../domain/dates';
import { queueMail } from '../mail/outbox';
import type { SchoolRow } from '../schools/queries';

export type InvoiceRow = typeof invoices.$inferSelect;
type PaymentRow = typeof subscriptionPayments.$inferSelect;

/**
 * The next invoice number of the financial year. The counter row is taken with an upsert, which
 * holds its lock until the invoice's transaction ends: concurrent payments queue behind each other,
 * and a rolled-back payment gives its number back, so the numbers have no gaps (ruling 33).
 */
async function nextSequence(tx: Db, year: string): Promise<number> {
  const [row] = await tx
    .insert(invoiceCounters)
    .values({ financialYear: year, lastSequence: 1 })
    .onConflictDoUpdate({ target: invoiceCounters.financialYear, set: { lastSequence: sql`${invoiceCounters.lastSequence} + 1` } })
    .returning({ sequence: invoiceCounters.lastSequence });
  return row!.sequence;
}

const CYCLE = { monthly: 'monthly', yearly: 'yearly' } as const;

/**
 * Issues the tax invoice of a paid subscription payment, in the payment's transaction, and queues
 * the "payment received" mail with it. The supplier's and the school's details are copied into the
 * invoice: a later change of either does not rewrite an issued invoice.
 */
export async function issueInvoice(
  tx: Db,
  { config, payment, school, planName, now }: { config: Config; payment: PaymentRow; school: SchoolRow; planName: string; now: Date },
): Promise<InvoiceRow> {
  const { supplier, prefix } = config.invoices;
  const year = financialYear(now);
  const sequence = await nextSequence(tx, year);
  const gst = paise(payment.gstPaise);
  const total = paise(payment.amountPaise);
  const taxable = paise(total - gst);
  const lines = taxLines(gst, isIntraState(supplier.state, school.state));
  const period =
    payment.periodStart && payment.periodEnd
      ? `, ${formatDateIN(indiaDate(payment.periodStart))} to ${formatDateIN(indiaDate(payment.periodEnd))}`
      : '';
  const description = `School Ledger ${planName} plan, ${CYCLE[payment.billingCycle]} subscription${period}`;
  const [invoice] = await tx
    .insert(invoices)
    .values({
      schoolId: school.id,
      paymentId: payment.id,
      number: invoiceNumber(prefix, year, sequence),
      financialYear: year,
      sequence,
      issuedAt: now,
      supplier: { ...supplier },
      buyer: { name: school.name, address: school.address, state: school.state, gstin: school.gstin, email: school.email },
      description,
      periodStart: payment.periodStart,
      periodEnd: payment.periodEnd,
      taxablePaise: taxable,
      cgstPaise: lines.cgst,
      sgstPaise: lines.sgst,
      igstPaise: lines.igst,
      totalPaise: total,
    })
    .returning();
  await queueMail(tx, {
    kind: 'payment-received',
    schoolId: school.id,
    now,
    // the tax invoice goes with the mail (ruling 33), rendered by the mail worker when it sends
    attachment: { kind: 'invoice', id: invoice!.id },
    ...paymentReceivedMail(school.email, {
      schoolName: school.name,
      invoiceNumber: invoice!.number,
      totalPaise: total,
      description,
      billingUrl: `${config.appUrl}/school/settings/billing`,
    }),
  });
  return invoice!;
}

export function listInvoices(db: Db, { schoolId }: { schoolId: string }): Promise<InvoiceRow[]> {
  return db.select().from(invoices).where(eq(invoices.schoolId, schoolId)).orderBy(desc(invoices.issuedAt), desc(invoices.sequence));
}

export async function findInvoice(db: Db, { schoolId, invoiceId }: { schoolId: string; invoiceId: string }): Promise<InvoiceRow | undefined> {
  const [row] = await db
    .select()
    .from(invoices)
    .where(and(eq(invoices.schoolId, schoolId), eq(invoices.id, invoiceId)))
    .limit(1);
  return row;
}
