import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState, type FormEvent } from 'react';
import { checkLineAmount, FEE_PAYMENT_REQUIRED_MESSAGE, type FeePaymentType } from '@/domain/ledger';
import { formatINR, paise, parseRupees, toRupeeString } from '@/domain/money';
import { sessionMonths } from '@/domain/sessions';
import { toast } from '@/web/components/toaster';
import { Alert, AlertDescription } from '@/web/components/ui/alert';
import { AmountInput } from '@/web/components/ui/amount-input';
import { Button } from '@/web/components/ui/button';
import { Checkbox } from '@/web/components/ui/checkbox';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/web/components/ui/dialog';
import { Input, NativeSelect } from '@/web/components/ui/input';
import { Field } from '@/web/components/ui/label';
import { rupees } from '@/web/lib/format';
import { fineQuery } from '@/web/lib/fine-api';
import { outstandingQuery, recordFeePayment, refreshLedger, type FeePaymentReceipt } from '@/web/lib/ledger-api';
import { sessionsQuery } from '@/web/lib/school-data';
import { serverMessage } from '@/web/lib/form-errors';
import { indiaToday, type FeeStudent } from './fee-student';
import { PaymentFields, paymentDetailsBody, paymentDetailsMissing, usePaymentDetails } from './payment-fields';
import { SavedReceipt } from './receipt-actions';
import { useClientId } from '@/web/lib/use-client-id';

/** The ten fee types of operations §3, in the documents' order, and the carried-forward balance. */
const FEE_TYPES: Array<{ type: FeePaymentType; label: string }> = [
  { type: 'monthly', label: 'Monthly Fee' },
  { type: 'admission', label: 'Admission Fee' },
  { type: 'books', label: 'Books Fee' },
  { type: 'transport', label: 'Transport Fee' },
  { type: 'exam', label: 'Exam Fee' },
  { type: 'laboratory', label: 'Laboratory Fee' },
  { type: 'library', label: 'Library Fee' },
  { type: 'sports', label: 'Sports Fee' },
  { type: 'uniform', label: 'Uniform Fee' },
  { type: 'other', label: 'Other Fee' },
];
const PREVIOUS_BALANCE = { type: 'previous_balance' as const, label: 'Previous Balance' };
/** Today's late fine (issue 16), offered only while one is due; collected under the head `fine`. */
const LATE_FINE = { type: 'fine' as const, label: 'Late Fine' };
/** Monthly and transport fees pay a month of the session. */
const PER_MONTH = new Set<FeePaymentType>(['monthly', 'transport']);

interface Row {
  checked: boolean;
  amount: string;
  month: string;
}

const blankRows = (): Record<string, Row> => ({});

/**
 * Record Fee Payment (operations §2, §3, §5): any of the ten fee types with an amount, the total
 * defaulting to their sum, one FEE receipt. For a passout only their outstanding balance can be
 * collected (`dues`), as the previous balance the discharge carried.
 */
export function RecordPaymentDialog({
  student,
  open,
  onOpenChange,
  dues = false,
}: {
  student: FeeStudent | null;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  dues?: boolean;
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-w-2xl">
        {open ? <PaymentForm key={student?.id ?? 'none'} student={student} dues={dues} onClose={() => onOpenChange(false)} /> : null}
      </DialogContent>
    </Dialog>
  );
}

function PaymentForm({ student, dues, onClose }: { student: FeeStudent | null; dues: boolean; onClose: () => void }) {
  const queryClient = useQueryClient();
  const outstanding = useQuery({ ...outstandingQuery(student?.id ?? ''), enabled: Boolean(student) });
  const sessions = useQuery(sessionsQuery());
  const [rows, setRows] = useState<Record<string, Row>>(blankRows);
  const [paidOn, setPaidOn] = useState(indiaToday);
  const { details, setDetails, rememberReceiver } = usePaymentDetails();
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const [saved, setSaved] = useState<FeePaymentReceipt | null>(null);
  const clientId = useClientId();

  const session = sessions.data?.find((s) => s.id === student?.sessionId) ?? sessions.data?.find((s) => s.isActive);
  const fine = useQuery({ ...fineQuery(student?.id ?? '', session?.sessionName), enabled: Boolean(student && session) && !dues });
  const fineDue = fine.data ? (parseRupees(fine.data.due) ?? 0) : 0;

  const carried = outstanding.data ? parseRupees(outstanding.data.previousBalance.balance) ?? 0 : 0;
  const types = dues ? [PREVIOUS_BALANCE] : [...FEE_TYPES, ...(fineDue > 0 ? [LATE_FINE] : []), ...(carried > 0 ? [PREVIOUS_BALANCE] : [])];

  // A passout's dues: the whole balance is offered, the clerk may take part of it.
  const effectiveRows = useMemo(() => {
    if (!dues || rows.previous_balance || !outstanding.data) return rows;
    return { ...rows, previous_balance: { checked: true, amount: outstanding.data.previousBalance.balance, month: '' } };
  }, [dues, rows, outstanding.data]);

  const months = useMemo(() => (session ? sessionMonths(session.startDate, session.endDate) : []), [session]);

  const suggested: Partial<Record<FeePaymentType, string | null | undefined>> = {
    monthly: student?.monthlyFee,
    transport: student && parseRupees(student.monthlyBusFee) ? student.monthlyBusFee : null,
    admission: student?.admissionFee,
    fine: fine.data?.due,
  };

  const setRow = (type: string, patch: Partial<Row>) =>
    setRows((prev) => {
      const current = effectiveRows[type] ?? prev[type] ?? { checked: false, amount: '', month: '' };
      return { ...prev, [type]: { ...current, ...patch } };
    });

  const selected = types.filter((t) => effectiveRows[t.type]?.checked);
  const total = selected.reduce((sum, t) => sum + (parseRupees(effectiveRows[t.type]?.amount ?? '') ?? 0), 0);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const found: Record<string, string> = {};
    const fees: Array<{ type: FeePaymentType; amount: string; month: string | null }> = [];
    for (const t of selected) {
      const row = effectiveRows[t.type]!;
      const check = checkLineAmount(row.amount, t.label);
      if (!check.ok) found[t.type] = check.message;
      else if (check.value && check.value > 0) fees.push({ type: t.type, amount: row.amount.trim(), month: PER_MONTH.has(t.type) && row.month ? row.month : null });
    }
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    if (!student || fees.length === 0) {
      toast.error({ title: 'Validation Error', description: FEE_PAYMENT_REQUIRED_MESSAGE });
      return;
    }
    const missing = paymentDetailsMissing(details);
    if (missing) {
      toast.error({ title: 'Validation Error', description: missing });
      return;
    }
    const body = { studentId: student.id, fees, totalPaid: toRupeeString(paise(total)), paidOn, ...paymentDetailsBody(details) };
    setBusy(true);
    try {
      const answer = await clientId.send(body, recordFeePayment);
      rememberReceiver(details.receivedBy);
      setSaved(answer.receipt);
      toast.success({ title: 'Payment Recorded', description: `Receipt ${answer.receipt.receiptNumber} for ${rupees(answer.receipt.total)}`, duration: 3000 });
      await refreshLedger(queryClient);
    } catch (error) {
      toast.error({ title: 'Error', description: serverMessage(error) ?? 'Failed to record payment' });
    } finally {
      setBusy(false);
    }
  };

  const title = dues ? 'Collect Dues' : 'Record Fee Payment';
  if (saved) {
    return (
      <>
        <DialogHeader>
          <DialogTitle>{title}</DialogTitle>
          <DialogDescription>
            {student?.name}: payment of {rupees(saved.total)} recorded.
          </DialogDescription>
        </DialogHeader>
        <SavedReceipt receipt={saved} />
        <DialogFooter>
          <Button onClick={onClose}>Done</Button>
        </DialogFooter>
      </>
    );
  }

  return (
    <>
      <DialogHeader>
        <DialogTitle>{title}</DialogTitle>
        <DialogDescription>
          {student ? `${student.name} · ${student.class}-${student.section} · Roll No. ${student.rollNumber}` : 'No student selected'}
        </DialogDescription>
      </DialogHeader>
      {outstanding.data ? (
        <Alert variant={parseRupees(outstanding.data.total) ? 'warning' : 'success'}>
          <AlertDescription>
            {parseRupees(outstanding.data.total) ? (
              <>
                Outstanding till date: <strong>{rupees(outstanding.data.total)}</strong>
                {' · '}
                {outstanding.data.currentSession ? `this session ${rupees(outstanding.data.currentSession.total)} · ` : ''}
                previous balance {rupees(outstanding.data.previousBalance.balance)}
              </>
            ) : (
              'Nothing is outstanding till date.'
            )}
          </AlertDescription>
        </Alert>
      ) : null}
      <form onSubmit={submit} noValidate className="grid gap-4">
        <fieldset className="grid gap-2">
          <legend className="mb-1 text-sm font-medium">Fee types</legend>
          {types.map((t) => {
            const row = effectiveRows[t.type] ?? { checked: false, amount: '', month: '' };
            const id = `pay-${t.type}`;
            return (
              <div key={t.type} className="grid gap-1">
                <div className="grid grid-cols-[1.25rem_minmax(0,1fr)_8.5rem] items-center gap-2 sm:grid-cols-[1.25rem_10rem_8.5rem_minmax(0,1fr)]">
                  <Checkbox
                    id={`${id}-check`}
                    checked={row.checked}
                    aria-label={t.label}
                    onCheckedChange={(checked) => {
                      const amount = row.amount || (checked === true ? (suggested[t.type] ?? '') || '' : '');
                      setRow(t.type, { checked: checked === true, amount });
                    }}
                  />
                  <label htmlFor={`${id}-check`} className="cursor-pointer text-sm">
                    {t.label}
                  </label>
                  <AmountInput
                    id={id}
                    aria-label={`${t.label} amount`}
                    placeholder="0.00"
                    className="h-9 text-right tabular-nums"
                    value={row.amount}
                    aria-invalid={errors[t.type] ? true : undefined}
                    onChange={(e) => setRow(t.type, { amount: e.target.value, checked: e.target.value.trim() !== '' || row.checked })}
                  />
                  {PER_MONTH.has(t.type) ? (
                    <NativeSelect
                      aria-label={`${t.label} month`}
                      className="col-span-2 col-start-2 h-9 sm:col-span-1 sm:col-start-auto"
                      value={row.month}
                      onChange={(e) => setRow(t.type, { month: e.target.value })}
                    >
                      <option value="">Earliest unpaid months</option>
                      {months.map((m) => (
                        <option key={m.key} value={m.key}>
                          {m.month} {m.year}
                        </option>
                      ))}
                    </NativeSelect>
                  ) : t.type === 'fine' && fine.data ? (
                    <span className="col-span-2 col-start-2 text-xs text-muted-foreground sm:col-span-1 sm:col-start-auto" data-testid="pay-fine-how">
                      Today {rupees(fine.data.due)}: {fine.data.explanation}
                    </span>
                  ) : t.type === 'previous_balance' && outstanding.data ? (
                    <span className="col-span-2 col-start-2 text-xs text-muted-foreground sm:col-span-1 sm:col-start-auto">
                      Pending {rupees(outstanding.data.previousBalance.balance)}
                    </span>
                  ) : null}
                </div>
                {errors[t.type] ? (
                  <p role="alert" className="pl-7 text-xs font-medium text-destructive">
                    {errors[t.type]}
                  </p>
                ) : null}
              </div>
            );
          })}
        </fieldset>
        <div className="grid gap-3 sm:grid-cols-2">
          <Field label="Total Paid" htmlFor="pay-total" hint="The sum of the selected fee amounts.">
            <Input id="pay-total" readOnly value={formatINR(paise(total))} className="font-semibold tabular-nums" />
          </Field>
          <Field label="Payment Date" htmlFor="pay-date">
            <Input id="pay-date" type="date" value={paidOn} max={indiaToday()} onChange={(e) => setPaidOn(e.target.value)} />
          </Field>
        </div>
        <PaymentFields value={details} onChange={setDetails} idPrefix="pay" className="lg:grid-cols-2" />
        <DialogFooter>
          <Button variant="outline" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" disabled={busy}>
            {busy ? 'Recording...' : dues ? 'Collect Payment' : 'Record Payment'}
          </Button>
        </DialogFooter>
      </form>
    </>
  );
}
