import { formatINR, type Paise } from '@/domain/money';
import { paiseOf } from '@/web/lib/format';
import { cn } from '@/web/lib/utils';
import { CLOSE_DAY_TEXTS } from './texts';

/** A cash difference, red when short, amber when in excess, green when it matches. */
export function Difference({ amount, className }: { amount: Paise | string; className?: string }) {
  const value = typeof amount === 'string' ? (paiseOf(amount) ?? (0 as Paise)) : amount;
  const label = value === 0 ? CLOSE_DAY_TEXTS.balanced : value < 0 ? CLOSE_DAY_TEXTS.short : CLOSE_DAY_TEXTS.excess;
  return (
    <span
      className={cn(
        'font-semibold tabular-nums',
        value === 0 ? 'text-success' : value < 0 ? 'text-destructive' : 'text-amber-700 dark:text-warning',
        className,
      )}
    >
      {value === 0 ? formatINR(value) : `${value > 0 ? '+' : '−'}${formatINR(Math.abs(value) as Paise)}`} <span className="text-xs font-medium">({label})</span>
    </span>
  );
}

/** Whether a closing's difference is not zero: such rows are highlighted. */
export const differs = (amount: string) => (paiseOf(amount) ?? 0) !== 0;
