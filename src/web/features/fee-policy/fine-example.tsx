import { useState } from 'react';
import { computeLateFine, type LateFineRule as FineRule } from '@/domain/fines';
import { formatINR, paise, parseRupees } from '@/domain/money';
import { indiaDate } from '@/domain/sessions';
import { Input } from '@/web/components/ui/input';
import { Label } from '@/web/components/ui/label';
import type { LateFineRule } from './api';
import { texts } from './texts';

const toPaise = (amount: string | null) => (amount === null ? null : (parseRupees(amount) ?? paise(0)));

/** The form's rule as the domain reads it: the example is the very function the server fines with. */
function domainRule(rule: LateFineRule): FineRule {
  return {
    ...rule,
    enabled: true,
    amount: toPaise(rule.amount) ?? paise(0),
    slabs: rule.slabs.map((s) => ({ afterDays: s.afterDays, amount: toPaise(s.amount) ?? paise(0) })),
    capPerMonth: toPaise(rule.capPerMonth),
    capPerSession: toPaise(rule.capPerSession),
  };
}

/** "Paid on the 20th: ₹100.00 fine": this month's fee paid on a day the user picks, fined by the rule as typed. */
export function FineExample({ rule }: { rule: LateFineRule }) {
  const [day, setDay] = useState('20');
  const month = indiaDate(new Date()).slice(0, 7);
  const paidDay = /^\d{1,2}$/.test(day) && Number(day) >= 1 && Number(day) <= 31 ? Number(day) : null;
  const result =
    paidDay === null
      ? null
      : computeLateFine({
          rule: domainRule(rule),
          asOf: `${month}-${String(paidDay).padStart(2, '0')}`,
          instalments: [
            {
              key: month,
              label: texts.exampleMonth,
              dueDate: `${month}-${String(rule.dueDay).padStart(2, '0')}`,
              unpaid: paise(0),
              settledOn: `${month}-${String(paidDay).padStart(2, '0')}`,
            },
          ],
        });
  return (
    <div className="grid gap-2 rounded-lg bg-muted/60 p-3 text-sm" data-testid="fine-example">
      <div className="flex flex-wrap items-center gap-2">
        <span className="font-medium">{texts.example}:</span>
        <Label htmlFor="fine-example-day" className="font-normal">
          {texts.exampleDay}
        </Label>
        <Input id="fine-example-day" inputMode="numeric" className="h-8 w-16" value={day} onChange={(e) => setDay(e.target.value)} />
      </div>
      {result && paidDay !== null ? (
        <p aria-live="polite">
          <span className="font-semibold" data-testid="fine-example-line">
            {texts.exampleLine(paidDay, formatINR(result.accrued))}
          </span>
          <span className="block text-xs text-muted-foreground">{result.lines[0]?.explanation ?? texts.exampleNone(rule.dueDay + rule.graceDays)}</span>
        </p>
      ) : null}
    </div>
  );
}
