import type { PlanId } from '@/domain/plans';
import { rupees } from '@/web/lib/format';
import { studentLimitText, type Plan } from '@/web/lib/plans-api';
import { cn } from '@/web/lib/utils';

/** The plan a school means to take after its trial; it can still choose another when it pays. */
export function PlanPicker({ plans, value, onChange }: { plans: Plan[]; value: PlanId | undefined; onChange: (id: PlanId) => void }) {
  return (
    <fieldset className="grid gap-2">
      <legend className="mb-2 text-sm font-medium">Plan you are interested in</legend>
      <div className="grid gap-2 sm:grid-cols-3">
        {plans.map((plan) => (
          <label
            key={plan.id}
            className={cn(
              'flex cursor-pointer items-start gap-3 rounded-lg border bg-card p-3 text-sm transition-colors hover:bg-accent/50',
              value === plan.id && 'border-primary ring-1 ring-primary',
            )}
          >
            <input
              type="radio"
              name="selectedPlan"
              value={plan.id}
              checked={value === plan.id}
              onChange={() => onChange(plan.id)}
              className="mt-0.5 accent-[var(--primary)]"
            />
            <span className="grid gap-0.5">
              <span className="font-medium">
                {plan.name}
                {plan.recommended ? <span className="ml-1.5 text-xs font-semibold text-primary">Most popular</span> : null}
              </span>
              <span className="text-muted-foreground">
                {rupees(plan.monthlyPrice, { decimals: false })}/month · {studentLimitText(plan.studentLimit)}
              </span>
            </span>
          </label>
        ))}
      </div>
      <p className="text-xs text-muted-foreground">Every plan starts with the same free trial. You can pick a different plan when you subscribe.</p>
    </fieldset>
  );
}
