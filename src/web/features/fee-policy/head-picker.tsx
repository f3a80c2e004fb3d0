import { Checkbox } from '@/web/components/ui/checkbox';
import { POLICY_HEADS, type PolicyHead } from './api';
import { texts } from './texts';

/** The heads a concession or a fine applies to, as checkboxes that wrap on a phone. */
export function HeadPicker({ idPrefix, value, onChange }: { idPrefix: string; value: PolicyHead[]; onChange: (heads: PolicyHead[]) => void }) {
  const toggle = (head: PolicyHead, on: boolean) => onChange(on ? [...value, head] : value.filter((h) => h !== head));
  return (
    <div className="flex flex-wrap gap-x-4 gap-y-2">
      {POLICY_HEADS.map((head) => (
        <label key={head} htmlFor={`${idPrefix}-${head}`} className="flex items-center gap-2 text-sm">
          <Checkbox id={`${idPrefix}-${head}`} checked={value.includes(head)} onCheckedChange={(v) => toggle(head, v === true)} />
          {texts.heads[head]}
        </label>
      ))}
    </div>
  );
}

export const headList = (heads: readonly string[]) => heads.map((h) => texts.heads[h] ?? h).join(', ');
