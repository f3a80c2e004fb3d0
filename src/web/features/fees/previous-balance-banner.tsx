import { TriangleAlertIcon } from 'lucide-react';
import { Alert, AlertDescription, AlertTitle } from '@/web/components/ui/alert';
import { AmountInput } from '@/web/components/ui/amount-input';
import { Input } from '@/web/components/ui/input';
import { Field } from '@/web/components/ui/label';
import { rupees } from '@/web/lib/format';
import type { CarriedSummary } from '@/web/lib/ledger-api';
import type { HeadDraft } from './monthly-draft';

/**
 * "Previous Balance Pending" (operations §2): what is still owed from earlier sessions, per session,
 * and a field to collect some or all of it on the same receipt (ruling 9).
 */
export function PreviousBalanceBanner({
  summary,
  value,
  problem,
  today,
  disabled,
  onAmount,
  onDate,
}: {
  summary: CarriedSummary;
  value: HeadDraft;
  problem: string | undefined;
  today: string;
  disabled: boolean;
  onAmount: (amount: string) => void;
  onDate: (date: string) => void;
}) {
  return (
    <Alert variant="warning" aria-label="Previous Balance Pending">
      <TriangleAlertIcon />
      <AlertTitle>Previous Balance Pending: {rupees(summary.balance)}</AlertTitle>
      <AlertDescription className="grid gap-3">
        <ul className="grid gap-0.5">
          {summary.balances.map((b) => (
            <li key={b.id}>
              {b.academicYear} ({b.className}): {rupees(b.balance)} — monthly {rupees(b.monthlyOutstanding)}, yearly {rupees(b.yearlyOutstanding)}
              {b.paid !== '0.00' ? `, ${rupees(b.paid)} already collected` : ''}
            </li>
          ))}
        </ul>
        <div className="grid gap-3 sm:grid-cols-[12rem_12rem]">
          <Field label="Collect now (₹)" htmlFor="previous-balance-amount" error={problem}>
            <AmountInput
              id="previous-balance-amount"
              placeholder={summary.balance}
              value={value.amount}
              disabled={disabled}
              className="bg-card text-right tabular-nums"
              aria-invalid={problem ? true : undefined}
              onChange={(e) => onAmount(e.target.value)}
            />
          </Field>
          <Field label="Payment date" htmlFor="previous-balance-date">
            <Input id="previous-balance-date" type="date" value={value.date} max={today} disabled={disabled} className="bg-card" onChange={(e) => onDate(e.target.value)} />
          </Field>
        </div>
      </AlertDescription>
    </Alert>
  );
}
