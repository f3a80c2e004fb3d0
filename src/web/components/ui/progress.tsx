import { cn } from '@/web/lib/utils';

/** A bar for a percentage, capped at 100 (the collection progress bar is capped too). */
export function Progress({ value, className, indicatorClassName, label }: { value: number; className?: string; indicatorClassName?: string; label?: string }) {
  const clamped = Math.max(0, Math.min(100, value));
  return (
    <div
      role="progressbar"
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={Math.round(clamped)}
      aria-label={label}
      className={cn('relative h-2.5 w-full overflow-hidden rounded-full bg-muted', className)}
    >
      <div className={cn('h-full rounded-full bg-primary transition-all', indicatorClassName)} style={{ width: `${clamped}%` }} />
    </div>
  );
}
