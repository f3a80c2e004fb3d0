import { useQuery } from '@tanstack/react-query';
import { PencilIcon, PlusIcon, Trash2Icon, WalletIcon } from 'lucide-react';
import { useMemo, useState } from 'react';
import { categoryTotals, DELETE_EXPENSE_CONFIRMATION, emptyExpensesMessage, type ExpenseCategory } from '@/domain/expenses';
import { addPaise, formatINR, ZERO, type Paise } from '@/domain/money';
import { toast } from '@/web/components/toaster';
import { Alert, AlertDescription } from '@/web/components/ui/alert';
import { Badge } from '@/web/components/ui/badge';
import { Button } from '@/web/components/ui/button';
import { Card, CardContent } from '@/web/components/ui/card';
import { ConfirmDialog } from '@/web/components/ui/confirm-dialog';
import { Spinner } from '@/web/components/ui/spinner';
import { Table, TableBody, TableCell, TableFooter, TableHead, TableHeader, TableRow } from '@/web/components/ui/table';
import { formatDate, paiseOf, rupees } from '@/web/lib/format';
import { cn } from '@/web/lib/utils';
import { expensesQuery, useDeleteExpense, type Expense } from './api';
import { ExpenseDialog } from './expense-dialog';

type Filter = ExpenseCategory | 'All';

/** The Expenses tab (operations §2): Add Expense, category chips with totals, and the table. */
export function ExpensesTab() {
  const list = useQuery(expensesQuery());
  const [filter, setFilter] = useState<Filter>('All');
  const [editing, setEditing] = useState<Expense | 'new' | null>(null);
  const [deleting, setDeleting] = useState<Expense | null>(null);
  const remove = useDeleteExpense();

  const rows = useMemo(() => (list.data ?? []).map((e) => ({ ...e, paise: paiseOf(e.amount) ?? ZERO })), [list.data]);
  const chips = useMemo(() => categoryTotals(rows.map((r) => ({ category: r.category, amount: r.paise }))), [rows]);
  const allTotal = rows.reduce<Paise>((s, r) => addPaise(s, r.paise), ZERO);
  // a category whose last expense was deleted stays chosen and says "No {category} expenses found"
  const active: Filter = filter;
  const shown = active === 'All' ? rows : rows.filter((r) => r.category === active);
  const shownTotal = shown.reduce<Paise>((s, r) => addPaise(s, r.paise), ZERO);

  const confirmDelete = async () => {
    const target = deleting;
    setDeleting(null);
    if (!target) return;
    try {
      await remove.mutateAsync(target.id);
      toast.success({ title: 'Success', description: 'Expense deleted successfully' });
    } catch (error) {
      console.error('Failed to delete expense', error);
      toast.error({ title: 'Error', description: 'Failed to delete expense. Please try again.' });
    }
  };

  return (
    <section aria-labelledby="expenses-heading" className="grid gap-4">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h2 id="expenses-heading" className="text-2xl font-semibold tracking-tight">Expenses</h2>
          <p className="text-sm text-muted-foreground">Record what the school spends and see it by category.</p>
        </div>
        <Button onClick={() => setEditing('new')}>
          <PlusIcon />
          Add Expense
        </Button>
      </div>

      <div role="group" aria-label="Filter by category" className="flex flex-wrap gap-2">
        <Chip label="All" amount={formatINR(allTotal)} active={active === 'All'} onClick={() => setFilter('All')} />
        {chips.map((c) => (
          <Chip key={c.category} label={c.category} amount={formatINR(c.total)} active={active === c.category} onClick={() => setFilter(c.category)} />
        ))}
      </div>

      {list.isPending ? (
        <div className="flex justify-center py-12">
          <Spinner className="size-7" />
        </div>
      ) : list.isError ? (
        <Alert variant="destructive">
          <AlertDescription>Failed to fetch expenses: {list.error.message}</AlertDescription>
        </Alert>
      ) : (
        <Card>
          <CardContent className="grid gap-3 p-0 sm:p-0">
            {shown.length === 0 ? (
              <div className="flex flex-col items-center gap-2 py-12 text-center">
                <span className="flex size-12 items-center justify-center rounded-full bg-primary/10 text-primary">
                  <WalletIcon className="size-6" />
                </span>
                <p className="text-base font-medium">{emptyExpensesMessage(active)}</p>
                <p className="text-sm text-muted-foreground">Expenses you add appear here with their category and date.</p>
              </div>
            ) : (
              <Table>
                <TableHeader>
                  <TableRow>
                    <TableHead>Description</TableHead>
                    <TableHead className="hidden sm:table-cell">Category</TableHead>
                    <TableHead className="text-right">Amount</TableHead>
                    <TableHead className="hidden sm:table-cell">Date</TableHead>
                    <TableHead className="text-right">
                      <span className="sr-only sm:not-sr-only">Actions</span>
                    </TableHead>
                  </TableRow>
                </TableHeader>
                <TableBody>
                  {shown.map((e) => (
                    <TableRow key={e.id}>
                      <TableCell className="max-w-[18rem] break-words">
                        <span className="font-medium">{e.description}</span>
                        {/* on a phone the category and date sit under the description */}
                        <span className="mt-1 flex flex-wrap items-center gap-2 text-xs text-muted-foreground sm:hidden">
                          <Badge variant="secondary">{e.category}</Badge>
                          {formatDate(e.date)}
                        </span>
                      </TableCell>
                      <TableCell className="hidden sm:table-cell">
                        <Badge variant="secondary">{e.category}</Badge>
                      </TableCell>
                      <TableCell className="text-right tabular-nums whitespace-nowrap">{rupees(e.amount)}</TableCell>
                      <TableCell className="hidden whitespace-nowrap sm:table-cell">{formatDate(e.date)}</TableCell>
                      <TableCell className="px-1 text-right whitespace-nowrap sm:px-3">
                        <Button variant="ghost" size="icon" className="size-8 sm:size-10" aria-label={`Edit ${e.description}`} onClick={() => setEditing(e)}>
                          <PencilIcon />
                        </Button>
                        <Button variant="ghost" size="icon" className="size-8 sm:size-10" aria-label={`Delete ${e.description}`} onClick={() => setDeleting(e)}>
                          <Trash2Icon className="text-destructive" />
                        </Button>
                      </TableCell>
                    </TableRow>
                  ))}
                </TableBody>
                <TableFooter>
                  <TableRow>
                    <TableCell>Total</TableCell>
                    <TableCell className="hidden sm:table-cell" />
                    <TableCell className="text-right tabular-nums whitespace-nowrap" data-testid="expenses-total">
                      {formatINR(shownTotal)}
                    </TableCell>
                    <TableCell className="hidden sm:table-cell" />
                    <TableCell />
                  </TableRow>
                </TableFooter>
              </Table>
            )}
          </CardContent>
        </Card>
      )}
      {list.data ? (
        <p className="text-sm text-muted-foreground" aria-live="polite">
          {shown.length} {shown.length === 1 ? 'record' : 'records'}
          {active === 'All' ? '' : ` in ${active}`}
        </p>
      ) : null}

      <ExpenseDialog
        key={editing === null ? 'closed' : editing === 'new' ? 'new' : editing.id}
        open={editing !== null}
        expense={editing === 'new' ? null : editing}
        onOpenChange={(open) => (open ? undefined : setEditing(null))}
      />
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => (open ? undefined : setDeleting(null))}
        title="Delete Expense"
        description={DELETE_EXPENSE_CONFIRMATION}
        confirmLabel="Delete"
        destructive
        onConfirm={confirmDelete}
      />
    </section>
  );
}

function Chip({ label, amount, active, onClick }: { label: string; amount: string; active: boolean; onClick: () => void }) {
  return (
    <button
      type="button"
      aria-pressed={active}
      onClick={onClick}
      className={cn(
        'inline-flex cursor-pointer items-center gap-2 rounded-full border px-3 py-1.5 text-sm transition-colors focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring',
        active ? 'border-primary bg-primary text-primary-foreground' : 'bg-card hover:bg-accent',
      )}
    >
      <span className="font-medium">{label}</span>
      <span className={cn('tabular-nums', active ? 'text-primary-foreground/90' : 'text-muted-foreground')}>{amount}</span>
    </button>
  );
}
