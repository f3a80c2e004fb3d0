import { ArrowRightIcon } from 'lucide-react';
import { useEffect, useMemo, useState } from 'react';
import { compareClasses } from '@/domain/classes';
import { bulkAdjustSchema, FEE_HEAD_LABELS, FEE_HEADS, percentageInput, type FeeHead } from '@/domain/fee-structures';
import { addPaise, formatINR, increaseByPercent, paise, parseRupees, ZERO, type Paise } from '@/domain/money';
import { toast } from '@/web/components/toaster';
import { Button } from '@/web/components/ui/button';
import { Checkbox } from '@/web/components/ui/checkbox';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/web/components/ui/dialog';
import { Input, NativeSelect } from '@/web/components/ui/input';
import { Field, Label } from '@/web/components/ui/label';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/web/components/ui/table';
import { serverMessage } from '@/web/lib/form-errors';
import { useBulkAdjustFees, type FeeStructure } from './api';

const ALL_SELECTED = Object.fromEntries(FEE_HEADS.map((h) => [h, true])) as Record<FeeHead, boolean>;
const NONE_SELECTED = Object.fromEntries(FEE_HEADS.map((h) => [h, false])) as Record<FeeHead, boolean>;
const ALL_YEARS = '';

const amountOf = (s: FeeStructure, head: FeeHead): Paise => parseRupees(s[head]) ?? ZERO;

/** Annual Fee Increment (operations §5 Bulk increase): raise the chosen fee heads by a percentage. */
export function BulkAdjustDialog({
  open,
  onOpenChange,
  structures,
  defaultYear,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  structures: FeeStructure[];
  defaultYear: string | null;
}) {
  const [percentage, setPercentage] = useState('');
  const [heads, setHeads] = useState<Record<FeeHead, boolean>>(ALL_SELECTED);
  const [year, setYear] = useState(defaultYear ?? ALL_YEARS);
  const adjust = useBulkAdjustFees();

  useEffect(() => {
    if (open) {
      setPercentage('');
      setHeads(ALL_SELECTED);
      setYear(defaultYear ?? ALL_YEARS);
    }
  }, [open, defaultYear]);

  const years = useMemo(() => [...new Set(structures.map((s) => s.academicYear))].sort().reverse(), [structures]);
  const parsedPercent = percentageInput.safeParse(percentage);
  const percent = parsedPercent.success ? parsedPercent.data : null;
  const chosen = FEE_HEADS.filter((h) => heads[h]);
  const affected = structures
    .filter((s) => year === ALL_YEARS || s.academicYear === year)
    .sort((a, b) => compareClasses(a.className, b.className) || a.academicYear.localeCompare(b.academicYear));

  const apply = () => {
    const parsed = bulkAdjustSchema.safeParse({ percentage, feeTypes: heads, academicYear: year || null });
    if (!parsed.success) {
      toast.error({ title: 'Validation Error', description: parsed.error.issues[0]?.message ?? 'Please enter a valid percentage greater than 0' });
      return;
    }
    adjust.mutate(
      { percentage, feeTypes: heads, academicYear: year || null },
      {
        onSuccess: () => {
          toast.success({ title: 'Success', description: 'Fee structures updated successfully with percentage increase' });
          onOpenChange(false);
        },
        onError: (error) =>
          toast.error({ title: 'Error', description: serverMessage(error) ?? 'Failed to adjust fees' }),
      },
    );
  };

  const sumOf = (s: FeeStructure, list: FeeHead[]) => addPaise(...list.map((h) => amountOf(s, h)));
  const raisedSumOf = (s: FeeStructure, list: FeeHead[]) => addPaise(...list.map((h) => (percent ? increaseByPercent(amountOf(s, h), percent) : amountOf(s, h))));

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-w-2xl">
        <DialogHeader>
          <DialogTitle>Annual Fee Increment</DialogTitle>
          <DialogDescription>Raise the chosen fees of every class by the same percentage. Amounts round to the nearest paisa.</DialogDescription>
        </DialogHeader>
        <div className="grid items-start gap-4 sm:grid-cols-2">
          <Field label="Increase by (%)" htmlFor="adjust-percent" hint={percent ? `e.g. ${formatINR(paise(100_000))} → ${formatINR(increaseByPercent(paise(100_000), percent))}` : 'e.g. 10 for 10%'}>
            <Input id="adjust-percent" type="number" min={0} step={0.01} inputMode="decimal" placeholder="10" value={percentage} onChange={(e) => setPercentage(e.target.value)} />
          </Field>
          <Field label="Apply to" htmlFor="adjust-year">
            <NativeSelect id="adjust-year" value={year} onChange={(e) => setYear(e.target.value)}>
              {years.map((y) => (
                <option key={y} value={y}>
                  {y}
                </option>
              ))}
              <option value={ALL_YEARS}>All years</option>
            </NativeSelect>
          </Field>
        </div>
        <div role="group" aria-labelledby="adjust-heads-label" className="grid gap-2">
          <div className="flex flex-wrap items-center justify-between gap-2">
            <span id="adjust-heads-label" className="text-sm font-medium">
              Fee types
            </span>
            <div className="flex gap-2">
              <Button variant="outline" size="sm" onClick={() => setHeads(ALL_SELECTED)}>
                Select All
              </Button>
              <Button variant="outline" size="sm" onClick={() => setHeads(NONE_SELECTED)}>
                Clear All
              </Button>
            </div>
          </div>
          <div className="grid gap-2 sm:grid-cols-2">
            {FEE_HEADS.map((head) => (
              <div key={head} className="flex items-center gap-2">
                <Checkbox id={`adjust-${head}`} checked={heads[head]} onCheckedChange={(v) => setHeads((prev) => ({ ...prev, [head]: v === true }))} />
                <Label htmlFor={`adjust-${head}`} className="font-normal">
                  {FEE_HEAD_LABELS[head]}
                </Label>
              </div>
            ))}
          </div>
        </div>
        {percent && chosen.length && affected.length ? (
          <div className="grid gap-2">
            <p className="text-sm font-medium">Preview</p>
            <div className="max-h-60 overflow-y-auto rounded-md border">
              <Table>
                <TableHeader>
                  <TableRow>
                    <TableHead>Class</TableHead>
                    {heads.monthlyTuitionFee ? <TableHead>Monthly tuition</TableHead> : null}
                    {chosen.some((h) => h !== 'monthlyTuitionFee') ? <TableHead>Chosen yearly fees</TableHead> : null}
                  </TableRow>
                </TableHeader>
                <TableBody>
                  {affected.map((s) => {
                    const yearly = chosen.filter((h) => h !== 'monthlyTuitionFee');
                    return (
                      <TableRow key={s.id}>
                        <TableCell className="whitespace-nowrap">
                          {s.className}
                          {year === ALL_YEARS ? <span className="text-xs text-muted-foreground"> · {s.academicYear}</span> : null}
                        </TableCell>
                        {heads.monthlyTuitionFee ? (
                          <TableCell>
                            <Change from={amountOf(s, 'monthlyTuitionFee')} to={increaseByPercent(amountOf(s, 'monthlyTuitionFee'), percent)} />
                          </TableCell>
                        ) : null}
                        {yearly.length ? (
                          <TableCell>
                            <Change from={sumOf(s, yearly)} to={raisedSumOf(s, yearly)} />
                          </TableCell>
                        ) : null}
                      </TableRow>
                    );
                  })}
                </TableBody>
              </Table>
            </div>
          </div>
        ) : null}
        <DialogFooter>
          <Button variant="outline" onClick={() => onOpenChange(false)}>
            Cancel
          </Button>
          <Button onClick={apply} disabled={adjust.isPending}>
            {adjust.isPending ? 'Applying...' : 'Apply Increase'}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}

function Change({ from, to }: { from: Paise; to: Paise }) {
  return (
    <span className="inline-flex items-center gap-1.5 whitespace-nowrap tabular-nums">
      {formatINR(from)}
      <ArrowRightIcon className="size-3.5 text-muted-foreground" />
      <strong>{formatINR(to)}</strong>
    </span>
  );
}
