import { indiaDate } from '@/domain/sessions';
import { Input } from '@/web/components/ui/input';
import { Field } from '@/web/components/ui/label';
import { REGISTER_TEXTS } from './texts';

/** The first of this month to today, in India: what a register opens on. */
export function thisMonth(): { from: string; to: string } {
  const today = indiaDate(new Date());
  return { from: `${today.slice(0, 8)}01`, to: today };
}

/** The first of last month to today: the closings that may still wait for an acknowledgement. */
export function lastTwoMonths(): { from: string; to: string } {
  const today = indiaDate(new Date());
  const [y, m] = today.split('-').map(Number) as [number, number];
  const first = m === 1 ? `${y - 1}-12-01` : `${y}-${String(m - 1).padStart(2, '0')}-01`;
  return { from: first, to: today };
}

/** From/To dates of a register; a cleared box keeps the previous date (both are needed). */
export function DateRange({ id, from, to, onChange }: { id: string; from?: string; to?: string; onChange: (range: { from?: string; to?: string }) => void }) {
  return (
    <>
      <Field label={REGISTER_TEXTS.from} htmlFor={`${id}-from`}>
        <Input id={`${id}-from`} type="date" value={from ?? ''} max={to} onChange={(e) => e.target.value && onChange({ from: e.target.value, to })} />
      </Field>
      <Field label={REGISTER_TEXTS.to} htmlFor={`${id}-to`}>
        <Input id={`${id}-to`} type="date" value={to ?? ''} min={from} onChange={(e) => e.target.value && onChange({ from, to: e.target.value })} />
      </Field>
    </>
  );
}
