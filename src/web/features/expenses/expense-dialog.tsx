import { zodResolver } from '@hookform/resolvers/zod';
import { useForm, type Resolver } from 'react-hook-form';
import { AmountInput } from '@/web/components/ui/amount-input';
import { EXPENSE_CATEGORIES, expenseSchema, type Expense as ParsedExpense } from '@/domain/expenses';
import { indiaDate } from '@/domain/sessions';
import { toast } from '@/web/components/toaster';
import { Button } from '@/web/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/web/components/ui/dialog';
import { Input, NativeSelect } from '@/web/components/ui/input';
import { Field } from '@/web/components/ui/label';
import { refusalMessage, toastFirstError } from '@/web/lib/form-errors';
import { useClientId } from '@/web/lib/use-client-id';
import { useCreateExpense, useUpdateExpense, type Expense } from './api';

type FormValues = { category: string; description: string; amount: string; date: string };

const toForm = (e: Expense | null): FormValues =>
  e
    ? { category: e.category, description: e.description, amount: e.amount, date: e.date }
    : { category: 'Salaries', description: '', amount: '', date: indiaDate(new Date()) };

/** Add New Expense and Edit Expense (operations §2, §5): the same fields and the same category list. */
export function ExpenseDialog({ open, onOpenChange, expense }: { open: boolean; onOpenChange: (open: boolean) => void; expense: Expense | null }) {
  const adding = expense === null;
  const form = useForm<FormValues, unknown, ParsedExpense>({
    resolver: zodResolver(expenseSchema) as unknown as Resolver<FormValues, unknown, ParsedExpense>,
    defaultValues: toForm(expense),
  });
  const create = useCreateExpense();
  const update = useUpdateExpense();
  const busy = create.isPending || update.isPending;
  // a second press of Add, or a retry after a lost answer, sends the same key: one expense (ruling 5)
  const clientId = useClientId();

  const onSubmit = form.handleSubmit(
    async () => {
      const input = form.getValues();
      try {
        if (adding) await clientId.send(input, (keyed) => create.mutateAsync(keyed));
        else await update.mutateAsync({ id: expense.id, input });
        toast.success({ title: 'Success', description: adding ? 'Expense added successfully' : 'Expense updated successfully' });
        onOpenChange(false);
      } catch (error) {
        toast.error({
          title: 'Error',
          description: refusalMessage(error, adding ? 'Failed to create expense' : 'Failed to update expense. Please try again.'),
        });
      }
    },
    toastFirstError,
  );

  const errors = form.formState.errors;
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-w-lg">
        <DialogHeader>
          <DialogTitle>{adding ? 'Add New Expense' : 'Edit Expense'}</DialogTitle>
          <DialogDescription>Amount in rupees, up to two decimals.</DialogDescription>
        </DialogHeader>
        <form onSubmit={onSubmit} noValidate className="grid gap-4">
          <Field label="Category *" htmlFor="expense-category" error={errors.category?.message}>
            <NativeSelect id="expense-category" aria-invalid={errors.category ? true : undefined} {...form.register('category')}>
              {EXPENSE_CATEGORIES.map((c) => (
                <option key={c} value={c}>
                  {c}
                </option>
              ))}
            </NativeSelect>
          </Field>
          <Field label="Description *" htmlFor="expense-description" error={errors.description?.message}>
            <Input
              id="expense-description"
              placeholder="e.g. Electricity bill for November"
              autoComplete="off"
              aria-invalid={errors.description ? true : undefined}
              {...form.register('description')}
            />
          </Field>
          <div className="grid gap-4 sm:grid-cols-2">
            <Field label="Amount (₹) *" htmlFor="expense-amount" error={errors.amount?.message}>
              <AmountInput
                id="expense-amount"
                placeholder="0.00"
                aria-invalid={errors.amount ? true : undefined}
                {...form.register('amount')}
              />
            </Field>
            <Field label="Date *" htmlFor="expense-date" error={errors.date?.message}>
              <Input id="expense-date" type="date" aria-invalid={errors.date ? true : undefined} {...form.register('date')} />
            </Field>
          </div>
          <DialogFooter>
            <Button variant="outline" onClick={() => onOpenChange(false)}>
              Cancel
            </Button>
            <Button type="submit" disabled={busy}>
              {busy ? 'Saving...' : adding ? 'Add Expense' : 'Update Expense'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
