import { CheckCircle2Icon, LockIcon } from 'lucide-react';
import { useRef, type KeyboardEvent, type RefObject } from 'react';
import { AmountInput } from '@/web/components/ui/amount-input';
import { formatINR, paise, parseRupees } from '@/domain/money';
import type { SessionMonth } from '@/domain/sessions';
import { toast } from '@/web/components/toaster';
import { Input } from '@/web/components/ui/input';
import { cn } from '@/web/lib/utils';
import type { MonthlyEntry } from './api';
import { isLocked, type MonthlyDraft, type MonthlyHead } from './monthly-draft';

const HEADS: Array<{ head: MonthlyHead; label: string }> = [
  { head: 'tuition', label: 'Tuition' },
  { head: 'bus', label: 'Bus' },
];

const amountOf = (text: string | undefined) => parseRupees(text ?? '') ?? 0;

export const cannotEdit = (month: string) =>
  toast.error({ title: 'Cannot Edit', description: `This fee for ${month} has already been processed and cannot be modified.` });

/**
 * The month table (operations §2, §4): every month of the session with tuition fee and date, bus
 * fee and date, the row total and the paid tick. Saved heads are read-only with a lock. Built for
 * speed at the counter: Enter goes down to the same fee of the next month (dates default to today),
 * arrow keys move between months, and the Enter after the last month lands on Save Changes.
 */
export function MonthlyGrid({
  months,
  saved,
  draft,
  problems,
  expected,
  today,
  disabled,
  saveRef,
  onAmount,
  onDate,
}: {
  months: SessionMonth[];
  saved: Map<string, MonthlyEntry>;
  draft: MonthlyDraft;
  problems: Record<string, string>;
  expected: { tuition: string | null; bus: string | null };
  today: string;
  disabled: boolean;
  saveRef: RefObject<HTMLButtonElement | null>;
  onAmount: (monthKey: string, head: MonthlyHead, amount: string) => void;
  onDate: (monthKey: string, head: MonthlyHead, date: string) => void;
}) {
  const gridRef = useRef<HTMLDivElement>(null);

  const editable = () => Array.from(gridRef.current?.querySelectorAll<HTMLInputElement>('input[data-amount]:not([readonly]):not(:disabled)') ?? []);

  /**
   * Enter and ↓ go to the same fee of the next open month (a clerk collects tuition for April,
   * May, June in one go, column by column); ↑ goes back. After the last month, Enter lands on Save
   * Changes. The arrow keys never nudge money.
   */
  const onAmountKey = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key !== 'Enter' && e.key !== 'ArrowDown' && e.key !== 'ArrowUp') return;
    e.preventDefault();
    const head = e.currentTarget.dataset.amount;
    const column = editable().filter((i) => i.dataset.amount === head);
    const target = column[column.indexOf(e.currentTarget) + (e.key === 'ArrowUp' ? -1 : 1)];
    if (target) target.focus();
    else if (e.key === 'Enter') saveRef.current?.focus();
  };

  const onDateKey = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key !== 'Enter') return;
    e.preventDefault();
    const here = e.currentTarget;
    const next = editable().find((i) => here.compareDocumentPosition(i) & Node.DOCUMENT_POSITION_FOLLOWING);
    if (next) next.focus();
    else saveRef.current?.focus();
  };

  const lockedKey = (label: string) => (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key.length === 1 || e.key === 'Backspace' || e.key === 'Delete') {
      e.preventDefault();
      cannotEdit(label);
    }
  };

  const rows = months.map((m) => {
    const entry = saved.get(m.key);
    const label = `${m.month} ${m.year}`;
    const cells = HEADS.map(({ head, label: headLabel }) => {
      const locked = isLocked(entry, head);
      const value = locked ? (head === 'tuition' ? entry!.tuitionFee : entry!.busFee) : (draft.months[m.key]?.[head]?.amount ?? '');
      const date = locked ? ((head === 'tuition' ? entry!.tuitionDate : entry!.busDate) ?? '') : (draft.months[m.key]?.[head]?.date ?? '');
      const problem = problems[`${m.key}:${head}`];
      return { head, headLabel, locked, value, date, problem };
    });
    const rowTotal = cells.reduce((s, c) => s + (c.problem ? 0 : amountOf(c.value)), 0);
    const paid = entry?.status === 'paid';
    const fullyLocked = cells.every((c) => c.locked);
    return { m, label, cells, rowTotal, paid, fullyLocked };
  });
  const cellsOf = rows.flatMap((r) => r.cells);
  const savedTotal = cellsOf.reduce((s, c) => s + (c.locked ? amountOf(c.value) : 0), 0);
  const gridProblems = Object.entries(problems).filter(([key]) => key !== 'previous');
  const newTotal = cellsOf.reduce((s, c) => s + (!c.locked && !c.problem ? amountOf(c.value) : 0), 0);

  return (
    <div ref={gridRef} className="grid gap-2 md:gap-0" role="table" aria-label="Monthly fees">
      <div role="row" className="hidden grid-cols-[8.5rem_repeat(4,minmax(0,1fr))_7rem_2.5rem] gap-2 border-b px-2 pb-2 text-xs font-medium text-muted-foreground md:grid">
        <span role="columnheader">Month</span>
        <span role="columnheader">Tuition Fee (₹)</span>
        <span role="columnheader">Tuition Date</span>
        <span role="columnheader">Bus Fee (₹)</span>
        <span role="columnheader">Bus Date</span>
        <span role="columnheader" className="text-right">
          Total
        </span>
        <span role="columnheader" className="sr-only">
          Status
        </span>
      </div>
      {rows.map(({ m, label, cells, rowTotal, paid, fullyLocked }) => (
        <div
          key={m.key}
          role="row"
          data-month={m.key}
          aria-label={label}
          className={cn(
            'grid grid-cols-2 gap-2 rounded-lg border p-3 md:grid-cols-[8.5rem_repeat(4,minmax(0,1fr))_7rem_2.5rem] md:items-center md:rounded-none md:border-0 md:border-b md:px-2 md:py-1.5',
            fullyLocked && 'bg-muted/50',
          )}
        >
          <div role="rowheader" className="col-span-2 flex items-center justify-between gap-2 md:col-span-1">
            <span className="font-medium">{label}</span>
            <span className="flex items-center gap-2 md:hidden">
              <span className="text-sm tabular-nums">{formatINR(paise(rowTotal))}</span>
              {paid ? <CheckCircle2Icon className="size-4 text-success" aria-label="Paid" /> : null}
            </span>
          </div>
          {cells.map((c) => (
            <HeadCells
              key={c.head}
              monthKey={m.key}
              monthLabel={label}
              cell={c}
              placeholder={(c.head === 'tuition' ? expected.tuition : expected.bus) ?? '0.00'}
              today={today}
              disabled={disabled}
              onAmount={onAmount}
              onDate={onDate}
              onAmountKey={onAmountKey}
              onDateKey={onDateKey}
              onLockedKey={lockedKey(label)}
            />
          ))}
          <span role="cell" className="hidden text-right text-sm font-medium tabular-nums md:block">
            {formatINR(paise(rowTotal))}
          </span>
          <span role="cell" className="hidden justify-center md:flex">
            {paid ? (
              <CheckCircle2Icon className="size-5 text-success" aria-label={`${label} paid`} />
            ) : (
              <span className="sr-only">Not paid</span>
            )}
          </span>
        </div>
      ))}
      {gridProblems.length > 0 ? (
        <ul role="alert" className="mt-2 grid gap-0.5 px-2 text-xs font-medium text-destructive">
          {gridProblems.map(([key, message]) => (
            <li key={key}>{message}</li>
          ))}
        </ul>
      ) : null}
      <div className="mt-2 flex flex-wrap items-center justify-end gap-x-6 gap-y-1 px-2 text-sm" aria-live="polite">
        <span className="text-muted-foreground">
          Saved this session: <strong className="tabular-nums text-foreground">{formatINR(paise(savedTotal))}</strong>
        </span>
        <span>
          Entering now: <strong className="tabular-nums" data-testid="monthly-new-total">{formatINR(paise(newTotal))}</strong>
        </span>
      </div>
    </div>
  );
}

function HeadCells({
  monthKey,
  monthLabel,
  cell,
  placeholder,
  today,
  disabled,
  onAmount,
  onDate,
  onAmountKey,
  onDateKey,
  onLockedKey,
}: {
  monthKey: string;
  monthLabel: string;
  cell: { head: MonthlyHead; headLabel: string; locked: boolean; value: string; date: string; problem: string | undefined };
  placeholder: string;
  today: string;
  disabled: boolean;
  onAmount: (monthKey: string, head: MonthlyHead, amount: string) => void;
  onDate: (monthKey: string, head: MonthlyHead, date: string) => void;
  onAmountKey: (e: KeyboardEvent<HTMLInputElement>) => void;
  onDateKey: (e: KeyboardEvent<HTMLInputElement>) => void;
  onLockedKey: (e: KeyboardEvent<HTMLInputElement>) => void;
}) {
  const { head, headLabel, locked, value, date, problem } = cell;
  const lockedProps = locked
    ? { readOnly: true, tabIndex: -1, onKeyDown: onLockedKey, onMouseDown: () => cannotEdit(monthLabel), 'aria-readonly': true }
    : {};
  return (
    <>
      <label role="cell" className="grid gap-1 text-xs text-muted-foreground md:block">
        <span className="md:sr-only">{headLabel} Fee (₹)</span>
        <span className="relative block">
          <AmountInput
            aria-label={`${headLabel} fee ${monthLabel}`}
            data-amount={head}
            placeholder={placeholder}
            value={value}
            disabled={disabled && !locked}
            aria-invalid={problem ? true : undefined}
            title={problem ?? (locked ? 'Saved: locked' : undefined)}
            className={cn('h-9 pr-7 text-right tabular-nums placeholder:text-muted-foreground/45', locked && 'cursor-not-allowed bg-muted text-foreground')}
            onChange={(e) => onAmount(monthKey, head, e.target.value)}
            {...(locked ? lockedProps : { onKeyDown: onAmountKey })}
          />
          {locked ? <LockIcon className="pointer-events-none absolute right-2 top-1/2 size-3.5 -translate-y-1/2 text-muted-foreground" aria-hidden /> : null}
        </span>
      </label>
      <label role="cell" className="grid gap-1 text-xs text-muted-foreground md:block">
        <span className="md:sr-only">{headLabel} Date</span>
        <Input
          type="date"
          aria-label={`${headLabel} date ${monthLabel}`}
          data-date={head}
          value={date}
          max={today}
          disabled={disabled && !locked}
          className={cn('h-9', locked && 'cursor-not-allowed bg-muted text-foreground')}
          onChange={(e) => onDate(monthKey, head, e.target.value)}
          {...(locked ? lockedProps : { onKeyDown: onDateKey })}
        />
      </label>
    </>
  );
}
