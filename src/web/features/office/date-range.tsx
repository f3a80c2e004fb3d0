import { Input } from '@/web/components/ui/input';
import { Field } from '@/web/components/ui/label';
import { REGISTER_TEXTS } from './texts';

/** From/To dates of a register; empty means no bound. */
export function DateRange({ id, fromDate, toDate, onChange }: { id: string; fromDate?: string; toDate?: string; onChange: (range: { fromDate?: string; toDate?: string }) => void }) {
  return (
    <>
      <Field label={REGISTER_TEXTS.from} htmlFor={`${id}-from`}>
        <Input id={`${id}-from`} type="date" value={fromDate ?? ''} onChange={(e) => onChange({ fromDate: e.target.value || undefined, toDate })} />
      </Field>
      <Field label={REGISTER_TEXTS.to} htmlFor={`${id}-to`}>
        <Input id={`${id}-to`} type="date" value={toDate ?? ''} onChange={(e) => onChange({ fromDate, toDate: e.target.value || undefined })} />
      </Field>
    </>
  );
}
