import { zodResolver } from '@hookform/resolvers/zod';
import { useForm, type Resolver } from 'react-hook-form';
import { AmountInput } from '@/web/components/ui/amount-input';
import { CLASSES } from '@/domain/classes';
import { FEE_HEAD_LABELS, FEE_HEADS, feeStructureSchema, type FeeHead, type FeeStructure as ParsedFeeStructure } from '@/domain/fee-structures';
import { addPaise, formatINR, parseRupees, ZERO, type Paise } from '@/domain/money';
import { normaliseAcademicYear } from '@/domain/sessions';
import { toast } from '@/web/components/toaster';
import { Button } from '@/web/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/web/components/ui/dialog';
import { Input, NativeSelect } from '@/web/components/ui/input';
import { Field } from '@/web/components/ui/label';
import { ApiError } from '@/web/lib/request';
import { serverMessage, toastFirstError } from '@/web/lib/form-errors';
import { useCreateFeeStructure, useUpdateFeeStructure, type FeeStructure } from './api';

type FormValues = { className: string; academicYear: string } & Record<FeeHead, string>;

const toForm = (s: FeeStructure | null, defaultYear: string): FormValues => ({
  className: s?.className ?? '',
  academicYear: s?.academicYear ?? defaultYear,
  ...(Object.fromEntries(FEE_HEADS.map((h) => [h, s ? s[h] : ''])) as Record<FeeHead, string>),
});

/** Add or edit one class's fees for a year (operations §5 Fee structure). */
export function FeeStructureDialog({
  open,
  onOpenChange,
  structure,
  existing,
  defaultYear,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  structure: FeeStructure | null;
  existing: FeeStructure[];
  defaultYear: string;
}) {
  const adding = structure === null;
  const form = useForm<FormValues, unknown, ParsedFeeStructure>({
    resolver: zodResolver(feeStructureSchema) as unknown as Resolver<FormValues, unknown, ParsedFeeStructure>,
    defaultValues: toForm(structure, defaultYear),
  });
  const create = useCreateFeeStructure();
  const update = useUpdateFeeStructure();
  const busy = create.isPending || update.isPending;

  const year = normaliseAcademicYear(form.watch('academicYear'));
  // Classes that already have a structure for the year being entered cannot be added again.
  const configured = new Set(existing.filter((s) => s.academicYear === year && s.id !== structure?.id).map((s) => s.className));

  const amounts = form.watch([...FEE_HEADS]);
  const yearlyTotal = amounts.slice(1).reduce<Paise>((sum, a) => addPaise(sum, parseRupees(a || '0') ?? ZERO), ZERO);

  const onSubmit = form.handleSubmit(
    async (parsed) => {
      if (configured.has(parsed.className)) {
        toast.error({ title: 'Duplicate Fee Structure', description: `Fee structure for ${parsed.className} in ${parsed.academicYear} already exists.` });
        return;
      }
      const input = form.getValues();
      try {
        if (adding) await create.mutateAsync(input);
        else await update.mutateAsync({ id: structure.id, input });
        toast.success({ title: 'Success', description: adding ? 'Class fee structure created successfully' : 'Class fee structure updated successfully' });
        onOpenChange(false);
      } catch (error) {
        if (error instanceof ApiError && error.status === 409) {
          toast.error({ title: typeof error.body.title === 'string' ? error.body.title : 'Duplicate Fee Structure', description: error.message });
          return;
        }
        const serverText = serverMessage(error);
        toast.error({ title: 'Error', description: serverText ?? (adding ? 'Failed to create fee structure' : 'Failed to update fee structure') });
      }
    },
    toastFirstError,
  );

  const errors = form.formState.errors;
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-w-xl">
        <DialogHeader>
          <DialogTitle>{adding ? 'Add Fee Structure' : `Edit Fee Structure: ${structure.className}`}</DialogTitle>
          <DialogDescription>Amounts in rupees. Tuition is charged every month; the other fees once a year.</DialogDescription>
        </DialogHeader>
        <form onSubmit={onSubmit} noValidate className="grid gap-4">
          <div className="grid items-start gap-4 sm:grid-cols-2">
            <Field label="Class *" htmlFor="fee-class" error={errors.className?.message}>
              <NativeSelect id="fee-class" aria-invalid={errors.className ? true : undefined} {...form.register('className')}>
                <option value="">Select class</option>
                {CLASSES.map((c) => (
                  <option key={c} value={c} disabled={adding && configured.has(c)}>
                    {c}
                    {adding && configured.has(c) ? ' (already set up)' : ''}
                  </option>
                ))}
              </NativeSelect>
            </Field>
            <Field label="Academic Year *" htmlFor="fee-year-input" error={errors.academicYear?.message}>
              <Input id="fee-year-input" placeholder="2024-2025" autoComplete="off" {...form.register('academicYear')} />
            </Field>
          </div>
          <div className="grid items-start gap-4 sm:grid-cols-2">
            {FEE_HEADS.map((head) => (
              <Field key={head} label={`${FEE_HEAD_LABELS[head]} (₹)`} htmlFor={`fee-${head}`} error={errors[head]?.message}>
                <AmountInput
                  id={`fee-${head}`}
                  placeholder="0.00"
                  aria-invalid={errors[head] ? true : undefined}
                  {...form.register(head)}
                />
              </Field>
            ))}
          </div>
          <p className="rounded-md bg-muted px-3 py-2 text-sm">
            Total yearly fees (yearly + exam + books + uniform + misc): <strong className="tabular-nums">{formatINR(yearlyTotal)}</strong>
          </p>
          <DialogFooter>
            <Button variant="outline" onClick={() => onOpenChange(false)}>
              Cancel
            </Button>
            <Button type="submit" disabled={busy}>
              {busy ? 'Saving...' : adding ? 'Add Fee Structure' : 'Save Changes'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
