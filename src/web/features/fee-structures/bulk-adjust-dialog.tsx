import { ArrowRightIcon } from 'lucide-react';
import { useEffect, useMemo, useState } from 'react';
import { compareClasses } from '@/domain/classes';
import { bulkAdjustSchema, FEE_HEAD_LABELS, FEE_HEADS, percentageInput, type FeeHead } from '@/domain/fee-structures';
import { addPaise, formatINR, paise, parseRupees, raiseFee, ROUNDING_STEPS, ZERO, type Paise, type RoundingStep } from '@/domain/money';
import { toast } from '@/web/components/toaster';
import { Button } from '@/web/components/ui/button';
import { Checkbox } from '@/web/components/ui/checkbox';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/web/components/ui/dialog';
import { Input, NativeSelect } from '@/web/components/ui/input';
import { Field, Label } from '@/web/components/ui/label';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/web/components/ui/table';
import { serverMessage } from '@/web/lib/form-errors';
import { ConfirmDialog } from '@/web/components/ui/confirm-dialog';
import { useBulkAdjustFees, type FeeStructure } from './api';
import { incrementTexts as t } from './texts';

const ALL_SELECTED = Object.fromEntries(FEE_HEADS.map((h) => [h, true])) as Record<FeeHead, boolean>;
const NONE_SELECTED = Object.fromEntries(FEE_HEADS.map((h) => [h, false])) as Record<FeeHead, boolean>;

const amountOf = (s: FeeStructure, head: FeeHead): Paise => parseRupees(s[head]) ?? ZERO;

/**
 * Annual Fee Increment (operations §5 Bulk increase): raise the chosen fee heads by a percentage,
 * by default from the running session's fees into the next session's, rounded to whole rupees,
 * with a preview of old → new per class and a confirmation.
 */
export function BulkAdjustDialog({
  open,
  onOpenChange,
  structures,
  runningYear,
  nextYear,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  structures: FeeStructure[];
  /** the active session's year */
  runningYear: string | null;
  /** the session after it, when one has been created */
  nextYear: string | null;
}) {
  const [percentage, setPercentage] = useState('');
  const [heads, setHeads] = useState<Record<FeeHead, boolean>>(ALL_SELECTED);
  const years = useMemo(
    () => [...new Set([...structures.map((s) => s.academicYear), ...(runningYear ? [runningYear] : []), ...(nextYear ? [nextYear] : [])])].sort().reverse(),
    [structures, runningYear, nextYear],
  );
  const defaultFrom = runningYear && structures.some((s) => s.academicYear === runningYear) ? runningYear : (years[0] ?? '');
  const [from, setFrom] = useState(defaultFrom);
  const [to, setTo] = useState(nextYear ?? defaultFrom);
  const [roundTo, setRoundTo] = useState<RoundingStep>(1);
  const [confirming, setConfirming] = useState(false);
  const adjust = useBulkAdjustFees();

  useEffect(() => {
    if (open) {
      setPercentage('');
      setHeads(ALL_SELECTED);
      setFrom(defaultFrom);
      setTo(nextYear ?? defaultFrom);
      setRoundTo(1);
    }
  }, [open, defaultFrom, nextYear]);

  const parsedPercent = percentageInput.safeParse(percentage);
  const percent = parsedPercent.success ? parsedPercent.data : null;
  const chosen = FEE_HEADS.filter((h) => heads[h]);
  const affected = structures.filter((s) => s.academicYear === from).sort((a, b) => compareClasses(a.className, b.className));
  const replaced = to !== from ? structures.filter((s) => s.academicYear === to && affected.some((a) => a.className === s.className)).length : 0;
  const raise = (amount: Paise) => (percent ? raiseFee(amount, percent, roundTo) : amount);
  // what a class pays now: the target year's own structure, else this year's (old → new)
  const current = (s: FeeStructure) => (to === from ? s : (structures.find((t) => t.academicYear === to && t.className === s.className) ?? s));

  const body = { percentage, feeTypes: heads, academicYear: to || null, fromAcademicYear: from || null, roundTo };
  const askToApply = () => {
    const parsed = bulkAdjustSchema.safeParse(body);
    if (!parsed.success) {
      toast.error({ title: 'Validation Error', description: parsed.error.issues[0]?.message ?? t.invalid });
      return;
    }
    setConfirming(true);
  };
  const apply = () =>
    adjust.mutate(body, {
      onSuccess: () => {
        toast.success({ title: 'Success', description: t.done });
        onOpenChange(false);
      },
      onError: (error) => toast.error({ title: 'Error', description: serverMessage(error) ?? t.failed }),
    });

  const sumOf = (s: FeeStructure | undefined, list: FeeHead[]) => (s ? addPaise(...list.map((h) => amountOf(s, h))) : null);
  const raisedSumOf = (s: FeeStructure, list: FeeHead[]) => addPaise(...list.map((h) => raise(amountOf(s, h))));
  const yearly = chosen.filter((h) => h !== 'monthlyTuitionFee');

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-h-[90vh] max-w-2xl overflow-y-auto">
        <DialogHeader>
          <DialogTitle>{t.title}</DialogTitle>
          <DialogDescription>{t.description}</DialogDescription>
        </DialogHeader>
        <div className="grid items-start gap-4 sm:grid-cols-2">
          <Field label={t.percent} htmlFor="adjust-percent" hint={percent ? t.percentHint(paise(165_450), raise(paise(165_450))) : t.percentPlaceholderHint}>
            <Input id="adjust-percent" type="text" inputMode="decimal" placeholder="10" value={percentage} onChange={(e) => setPercentage(e.target.value)} />
          </Field>
          <Field label={t.roundTo} htmlFor="adjust-round">
            <NativeSelect id="adjust-round" value={String(roundTo)} onChange={(e) => setRoundTo(Number(e.target.value) as RoundingStep)}>
              {ROUNDING_STEPS.map((step) => (
                <option key={step} value={step}>
                  {t.roundOption(step)}
                </option>
              ))}
            </NativeSelect>
          </Field>
          <Field label={t.from} htmlFor="adjust-from">
            <NativeSelect id="adjust-from" value={from} onChange={(e) => setFrom(e.target.value)}>
              {years.filter((y) => structures.some((s) => s.academicYear === y)).map((y) => (
                <option key={y} value={y}>
                  {y}
                </option>
              ))}
            </NativeSelect>
          </Field>
          <Field label={t.to} htmlFor="adjust-year">
            <NativeSelect id="adjust-year" value={to} onChange={(e) => setTo(e.target.value)}>
              {years.map((y) => (
                <option key={y} value={y}>
                  {y}
                </option>
              ))}
            </NativeSelect>
          </Field>
        </div>
        {to && to === runningYear ? <p className="rounded-md border border-amber-300 bg-amber-50 p-2 text-sm text-amber-900 dark:border-amber-900 dark:bg-amber-950/40 dark:text-amber-100">{t.runningWarning(to)}</p> : null}
        {replaced > 0 ? <p className="text-sm text-muted-foreground">{t.replaceNote(to, replaced)}</p> : null}
        <div role="group" aria-labelledby="adjust-heads-label" className="grid gap-2">
          <div className="flex flex-wrap items-center justify-between gap-2">
            <span id="adjust-heads-label" className="text-sm font-medium">
              {t.feeTypes}
            </span>
            <div className="flex gap-2">
              <Button variant="outline" size="sm" onClick={() => setHeads(ALL_SELECTED)}>
                {t.selectAll}
              </Button>
              <Button variant="outline" size="sm" onClick={() => setHeads(NONE_SELECTED)}>
                {t.clearAll}
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
            <p className="text-sm font-medium">{t.preview}</p>
            <div className="max-h-60 overflow-y-auto rounded-md border">
              <Table aria-label={t.preview}>
                <TableHeader>
                  <TableRow>
                    <TableHead>{t.previewClass}</TableHead>
                    {heads.monthlyTuitionFee ? <TableHead>{t.previewTuition}</TableHead> : null}
                    {yearly.length ? <TableHead>{t.previewYearly}</TableHead> : null}
                  </TableRow>
                </TableHeader>
                <TableBody>
                  {affected.map((s) => {
                    const now = current(s);
                    return (
                      <TableRow key={s.id}>
                        <TableCell className="whitespace-nowrap">{s.className}</TableCell>
                        {heads.monthlyTuitionFee ? (
                          <TableCell>
                            <Change from={now ? amountOf(now, 'monthlyTuitionFee') : null} to={raise(amountOf(s, 'monthlyTuitionFee'))} />
                          </TableCell>
                        ) : null}
                        {yearly.length ? (
                          <TableCell>
                            <Change from={sumOf(now, yearly)} to={raisedSumOf(s, yearly)} />
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
            {t.cancel}
          </Button>
          <Button onClick={askToApply} disabled={adjust.isPending}>
            {adjust.isPending ? t.applying : t.apply}
          </Button>
        </DialogFooter>
        <ConfirmDialog
          open={confirming}
          onOpenChange={setConfirming}
          title={t.confirmTitle(affected.length, to)}
          description={t.confirmDescription(percent ?? percentage, roundTo)}
          confirmLabel={t.apply}
          onConfirm={apply}
        />
      </DialogContent>
    </Dialog>
  );
}

function Change({ from, to }: { from: Paise | null; to: Paise }) {
  return (
    <span className="inline-flex items-center gap-1.5 whitespace-nowrap tabular-nums">
      {from === null ? '—' : formatINR(from)}
      <ArrowRightIcon className="size-3.5 text-muted-foreground" />
      <strong>{formatINR(to)}</strong>
    </span>
  );
}
