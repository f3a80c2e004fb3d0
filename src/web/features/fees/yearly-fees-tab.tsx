import { useQuery } from '@tanstack/react-query';
import { InfoIcon, LockIcon } from 'lucide-react';
import { useRef, useState, type KeyboardEvent } from 'react';
import { checkLineAmount, HEAD_LABELS, YEARLY_EMPTY_MESSAGE, YEARLY_FIELDS, yearlyLockedMessage } from '@/domain/ledger';
import { formatINR, paise, parseRupees } from '@/domain/money';
import { indiaToday } from '@/web/components/fees/fee-student';
import { PaymentFields, paymentDetailsBody, paymentDetailsMissing, usePaymentDetails } from '@/web/components/fees/payment-fields';
import { SavedReceipt } from '@/web/components/fees/receipt-actions';
import { useClientId } from '@/web/lib/use-client-id';
import { toast } from '@/web/components/toaster';
import { LoadFailedAlert } from '@/web/components/load-failed-alert';
import { Alert, AlertDescription } from '@/web/components/ui/alert';
import { AmountInput } from '@/web/components/ui/amount-input';
import { Badge } from '@/web/components/ui/badge';
import { Card, CardContent, CardHeader, CardTitle } from '@/web/components/ui/card';
import { Input } from '@/web/components/ui/input';
import { Spinner } from '@/web/components/ui/spinner';
import { rupees } from '@/web/lib/format';
import { studentReceiptsQuery, type Receipt } from '@/web/lib/ledger-api';
import { ApiError } from '@/web/lib/request';
import { cn } from '@/web/lib/utils';
import { serverMessage } from '@/web/lib/form-errors';
import { useSaveYearly, yearlyEntryQuery, type FeeStructureAmounts, type YearlyEntry, type YearlyHead } from './api';
import { NoStudent, StudentLoading } from './no-student';
import { StudentPicker } from './student-picker';
import { SaveButtons, SaveDialogs, useSaveControls } from './save-controls';
import { StructureMissingAlert } from './structure-missing-alert';
import { useErrorToast } from './use-error-toast';
import { yearlyTexts } from './messages';
import { useFeeSelection } from './use-fee-selection';

/** The five fee cards (operations §2): Yearly (admission), Exam, Books, Uniform, Misc. */
const CARDS: Array<{ head: YearlyHead; title: string; expected: keyof FeeStructureAmounts }> = [
  { head: 'admission', title: 'Yearly (Admission) Fee', expected: 'yearlyFee' },
  { head: 'exam', title: 'Exam Fee', expected: 'examFee' },
  { head: 'books', title: 'Books Fee', expected: 'booksFee' },
  { head: 'uniform', title: 'Uniform Fee', expected: 'uniformFee' },
  { head: 'misc', title: 'Misc Fee', expected: 'miscFee' },
];

type Draft = Partial<Record<YearlyHead, { amount: string; date: string }>>;

const savedAmount = (entry: YearlyEntry, head: YearlyHead) => entry[YEARLY_FIELDS[head].amount as keyof YearlyEntry] as string | null;
const savedDate = (entry: YearlyEntry, head: YearlyHead) => entry[YEARLY_FIELDS[head].date as keyof YearlyEntry] as string | null;

/** Submit Yearly Fee (operations §2 Yearly Fee Management). */
export function YearlyFeesTab() {
  const state = useFeeSelection();
  useErrorToast(state.errors.sessions, 'Failed to fetch academic sessions');
  useErrorToast(state.errors.roster ?? state.errors.classes, 'Failed to fetch students');
  return (
    <section aria-labelledby="yearly-heading" className="grid min-w-0 gap-4 [&>*]:min-w-0">
      <div>
        <h2 id="yearly-heading" className="text-2xl font-semibold tracking-tight">
          Yearly Fee Management
        </h2>
        <p className="text-sm text-muted-foreground">Admission, exam, books, uniform and misc fees, once a session. Only fees already entered are locked.</p>
      </div>
      <Card>
        <CardContent className="pt-5 sm:pt-6">
          <StudentPicker state={state} idPrefix="yearly" />
        </CardContent>
      </Card>
      {state.student && state.session ? (
        <StudentYearly key={`${state.student.id}|${state.session.sessionName}`} state={state} />
      ) : state.loading.student ? (
        <StudentLoading />
      ) : (
        <NoStudent what="yearly fees" />
      )}
    </section>
  );
}

function StudentYearly({ state }: { state: ReturnType<typeof useFeeSelection> }) {
  const student = state.student!;
  const session = state.session!;
  const academicYear = session.sessionName;
  const today = indiaToday();
  const entry = useQuery(yearlyEntryQuery(student.id, academicYear));
  const receipts = useQuery(studentReceiptsQuery(student.id));
  useErrorToast(entry.error, 'Failed to fetch yearly entries');
  const [draft, setDraft] = useState<Draft>({});
  const { details, setDetails, rememberReceiver } = usePaymentDetails();
  const controls = useSaveControls();
  const { setConfirming } = controls;
  const [created, setCreated] = useState<Receipt[]>([]);
  const save = useSaveYearly();
  const clientId = useClientId();
  const saveRef = useRef<HTMLButtonElement>(null);

  const data = entry.data;
  const locked = new Set(data?.lockedFees ?? []);
  const partial = new Map((data?.partialFees ?? []).map((p) => [p.head, p]));
  const ownSession = student.sessionId === session.id;
  const structureMissing = ownSession && data !== undefined && data.structure === null;
  const readOnly = !ownSession || structureMissing || save.isPending;

  const problems: Partial<Record<YearlyHead, string>> = {};
  for (const { head } of CARDS) {
    if (locked.has(head)) continue;
    const check = checkLineAmount(draft[head]?.amount ?? '', YEARLY_FIELDS[head].label);
    if (!check.ok) problems[head] = check.message;
  }
  const entering = CARDS.filter(({ head }) => !locked.has(head) && !problems[head] && (parseRupees(draft[head]?.amount ?? '') ?? 0) > 0);
  const enteringTotal = entering.reduce((s, { head }) => s + (parseRupees(draft[head]!.amount) ?? 0), 0);
  const expectedTotal = CARDS.reduce((s, c) => s + (parseRupees(data?.structure?.[c.expected] ?? '') ?? 0), 0);
  const paidTotal = CARDS.reduce((s, { head }) => s + (data ? (parseRupees(savedAmount(data, head) ?? '') ?? 0) : 0), 0);
  // a part-paid head shows what is received; what is typed on it is collected now, up to what is left
  for (const { head } of CARDS) {
    const open = partial.get(head);
    const typed = parseRupees(draft[head]?.amount ?? '') ?? 0;
    if (open && !problems[head] && typed > (parseRupees(open.remaining) ?? 0)) problems[head] = yearlyTexts.moreThanLeft(rupees(open.remaining));
  }

  const setAmount = (head: YearlyHead, amount: string) =>
    setDraft((d) => ({ ...d, [head]: { amount, date: amount.trim() ? d[head]?.date || today : '' } }));
  const setDate = (head: YearlyHead, date: string) => setDraft((d) => ({ ...d, [head]: { amount: d[head]?.amount ?? '', date } }));

  const askToSave = () => {
    const first = Object.values(problems)[0];
    if (first) return toast.error({ title: 'Validation Error', description: first });
    if (entering.length === 0) return toast.error({ title: 'Validation Error', description: YEARLY_EMPTY_MESSAGE });
    const missing = paymentDetailsMissing(details);
    if (missing) return toast.error({ title: 'Validation Error', description: missing });
    setConfirming(true);
  };

  const doSave = () => {
    const fields: Record<string, string | null> = {};
    for (const { head } of CARDS) {
      const typed = entering.some((c) => c.head === head) ? draft[head]! : null;
      fields[YEARLY_FIELDS[head].amount] = typed ? typed.amount.trim() : null;
      fields[YEARLY_FIELDS[head].date] = typed ? typed.date || null : null;
    }
    const core = { studentId: student.id, academicYear, ...fields, ...paymentDetailsBody(details) };
    save.mutate(
      { ...core, clientId: clientId.keyFor(core), submittedAt: new Date().toISOString(), version: data?.version ?? 0 },
      {
        onSuccess: (answer) => {
          clientId.done();
          setDraft({});
          rememberReceiver(details.receivedBy);
          setCreated((list) => [answer.receipt, ...list.filter((r) => r.id !== answer.receipt.id)]);
          toast.success({ title: 'Success', description: 'Yearly fee data saved successfully!', duration: 3000 });
        },
        onError: (error) => {
          toast.error({ title: 'Error', description: serverMessage(error) ?? 'Failed to save yearly fee data' });
          if (error instanceof ApiError && error.status === 409) void entry.refetch();
        },
      },
    );
  };

  const printLatest = () =>
    controls.printFirst(
      created[0] ?? receipts.data?.find((r) => r.prefix === 'YRL' && r.status === 'live' && r.academicYear === academicYear),
      `No yearly fee has been saved for ${student.name} in ${academicYear}.`,
    );
  const onKeyDown = controls.saveOnCtrlS(readOnly, askToSave);

  if (entry.isPending) {
    return (
      <div className="flex justify-center py-10">
        <Spinner className="size-6" label="Loading yearly fees" />
      </div>
    );
  }
  if (entry.isError) {
    return (
      <LoadFailedAlert message={`Failed to fetch yearly entries: ${entry.error.message}`} onRetry={() => entry.refetch()} />
    );
  }

  const loaded = entry.data;
  return (
    <div className="grid gap-4" onKeyDown={onKeyDown}>
      {structureMissing ? <StructureMissingAlert className={student.class} academicYear={academicYear} /> : null}
      {!ownSession ? (
        <Alert variant="info">
          <AlertDescription>
            {student.name} is now in {state.sessions.find((s) => s.id === student.sessionId)?.sessionName ?? 'another session'}: the yearly fees of {academicYear} are shown as
            recorded. What was still owed is collected as a previous balance.
          </AlertDescription>
        </Alert>
      ) : null}
      {locked.size > 0 ? (
        <Alert variant="info">
          <InfoIcon />
          <AlertDescription>Some fee details are locked (selective protection)</AlertDescription>
        </Alert>
      ) : null}
      {created.map((r) => (
        <SavedReceipt key={r.id} receipt={r} />
      ))}
      <div className="grid gap-3 sm:grid-cols-2 xl:grid-cols-3">
        {CARDS.map(({ head, title, expected }) => {
          const isLocked = locked.has(head);
          const part = partial.get(head);
          const expectedAmount = loaded.structure?.[expected] ?? null;
          const applicable = (parseRupees(expectedAmount ?? '') ?? 0) > 0;
          const amount = isLocked ? (savedAmount(loaded, head) ?? '') : (draft[head]?.amount ?? '');
          const date = isLocked ? (savedDate(loaded, head) ?? '') : (draft[head]?.date ?? '');
          const refuse = (e: KeyboardEvent<HTMLInputElement>) => {
            if (e.key.length === 1 || e.key === 'Backspace' || e.key === 'Delete') {
              e.preventDefault();
              toast.error({ title: 'Cannot Edit', description: yearlyLockedMessage(head) });
            }
          };
          const lockedProps = isLocked
            ? { readOnly: true, tabIndex: -1, onKeyDown: refuse, onMouseDown: () => toast.error({ title: 'Cannot Edit', description: yearlyLockedMessage(head) }) }
            : {};
          return (
            <Card key={head} role="group" aria-label={title} className={cn(isLocked && 'bg-muted/40')}>
              <CardHeader className="flex-row items-start justify-between gap-2 pb-3">
                <div className="grid gap-1">
                  <CardTitle className="text-base">{title}</CardTitle>
                  <p className="text-xs text-muted-foreground">{applicable ? `Expected ${rupees(expectedAmount)}` : 'Not in the class fee structure'}</p>
                  {part ? <p className="text-xs text-muted-foreground">{yearlyTexts.stillDue(rupees(part.remaining))}</p> : null}
                </div>
                {isLocked ? (
                  <Badge variant="success">
                    <LockIcon className="size-3" />
                    Paid
                  </Badge>
                ) : part ? (
                  <Badge variant="warning">{yearlyTexts.partial(rupees(part.received), rupees(part.due))}</Badge>
                ) : applicable ? (
                  <Badge variant="warning">Pending</Badge>
                ) : null}
              </CardHeader>
              <CardContent className="grid grid-cols-2 gap-2">
                <label className="grid gap-1 text-xs text-muted-foreground">
                  Amount (₹)
                  <AmountInput
                    aria-label={`${HEAD_LABELS[head]} amount`}
                    placeholder={part ? part.remaining : (expectedAmount ?? '0.00')}
                    value={amount}
                    disabled={readOnly && !isLocked}
                    aria-invalid={problems[head] ? true : undefined}
                    className={cn('text-right tabular-nums placeholder:text-muted-foreground/45', isLocked && 'cursor-not-allowed bg-muted')}
                    onChange={(e) => setAmount(head, e.target.value)}
                    onKeyDown={
                      isLocked
                        ? undefined
                        : (e) => {
                            if (e.key === 'Enter') {
                              e.preventDefault();
                              saveRef.current?.focus();
                            }
                          }
                    }
                    {...lockedProps}
                  />
                </label>
                <label className="grid gap-1 text-xs text-muted-foreground">
                  Date
                  <Input
                    type="date"
                    aria-label={`${HEAD_LABELS[head]} date`}
                    value={date}
                    max={today}
                    disabled={readOnly && !isLocked}
                    className={cn(isLocked && 'cursor-not-allowed bg-muted')}
                    onChange={(e) => setDate(head, e.target.value)}
                    {...lockedProps}
                  />
                </label>
                {problems[head] ? (
                  <p role="alert" className="col-span-2 text-xs font-medium text-destructive">
                    {problems[head]}
                  </p>
                ) : null}
              </CardContent>
            </Card>
          );
        })}
        <Card className="sm:col-span-2 xl:col-span-1">
          <CardHeader className="pb-3">
            <CardTitle className="text-base">Total Yearly Fees</CardTitle>
          </CardHeader>
          <CardContent className="grid gap-1 text-sm">
            <p className="flex justify-between">
              <span className="text-muted-foreground">Expected</span>
              <span className="tabular-nums">{formatINR(paise(expectedTotal))}</span>
            </p>
            <p className="flex justify-between">
              <span className="text-muted-foreground">{yearlyTexts.paidCount(locked.size, partial.size)}</span>
              <span className="tabular-nums">{formatINR(paise(paidTotal))}</span>
            </p>
            <p className="flex justify-between font-medium">
              <span>Entering now</span>
              <span className="tabular-nums">{formatINR(paise(enteringTotal))}</span>
            </p>
          </CardContent>
        </Card>
      </div>
      <Card>
        <CardContent className="grid gap-4 pt-5 sm:pt-6">
          <PaymentFields value={details} onChange={setDetails} idPrefix="yearly-pay" disabled={readOnly} />
          <div className="flex flex-wrap justify-end gap-2 border-t pt-4">
            <SaveButtons onPrint={printLatest} onSave={askToSave} saveRef={saveRef} disabled={readOnly} saving={save.isPending} />
          </div>
        </CardContent>
      </Card>
      <SaveDialogs controls={controls} studentName={student.name} amount={enteringTotal} onConfirm={doSave} />
    </div>
  );
}
