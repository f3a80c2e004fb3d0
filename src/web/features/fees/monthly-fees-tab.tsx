import { useQuery } from '@tanstack/react-query';
import { HistoryIcon, RefreshCwIcon } from 'lucide-react';
import { useMemo, useRef, useState } from 'react';
import { NO_NEW_DATA_MESSAGE } from '@/domain/ledger';
import { formatINR, paise, parseRupees } from '@/domain/money';
import { sessionMonths } from '@/domain/sessions';
import { indiaToday } from '@/web/components/fees/fee-student';
import { PaymentFields, paymentDetailsBody, paymentDetailsMissing, usePaymentDetails } from '@/web/components/fees/payment-fields';
import { SavedReceipt } from '@/web/components/fees/receipt-actions';
import { useClientId } from '@/web/lib/use-client-id';
import { toast } from '@/web/components/toaster';
import { LoadFailedAlert } from '@/web/components/load-failed-alert';
import { Alert, AlertDescription } from '@/web/components/ui/alert';
import { Button } from '@/web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/web/components/ui/card';
import { Spinner } from '@/web/components/ui/spinner';
import { formatGeneratedAt, rupees } from '@/web/lib/format';
import { studentReceiptsQuery, type Receipt } from '@/web/lib/ledger-api';
import { ApiError } from '@/web/lib/request';
import { feeStructuresQuery } from '@/web/lib/school-data';
import { serverMessage } from '@/web/lib/form-errors';
import { monthlyEntriesQuery, useSaveMonthly } from './api';
import { bulkEntries, draftProblems, isEmptyDraft, pendingHeads } from './monthly-draft';
import { MonthlyGrid } from './monthly-grid';
import { PreviousBalanceBanner } from './previous-balance-banner';
import { SchoolAdminOnly } from './school-admin-only';
import { NoStudent, StudentLoading } from './no-student';
import { StudentPicker } from './student-picker';
import { SaveButtons, SaveDialogs, useSaveControls } from './save-controls';
import { StructureMissingAlert } from './structure-missing-alert';
import { useErrorToast } from './use-error-toast';
import { useFeeSelection } from './use-fee-selection';
import { useMonthlyDraft } from './use-monthly-draft';

/** Submit Monthly Fee (operations §2 Monthly Fee Management). */
export function MonthlyFeesTab() {
  return (
    <section aria-labelledby="monthly-heading" className="grid min-w-0 gap-4 [&>*]:min-w-0">
      <div>
        <h2 id="monthly-heading" className="text-2xl font-semibold tracking-tight">
          Monthly Fee Management
        </h2>
        <p className="text-sm text-muted-foreground">Tuition and bus fees month by month. Saved months are locked; a wrong receipt is cancelled, never edited.</p>
      </div>
      <SchoolAdminOnly>
        <MonthlyFees />
      </SchoolAdminOnly>
    </section>
  );
}

function MonthlyFees() {
  const state = useFeeSelection();
  const { student, session, selection } = state;
  useErrorToast(state.errors.sessions, 'Failed to fetch academic sessions');
  useErrorToast(state.errors.roster ?? state.errors.classes, 'Failed to fetch students');

  return (
    <>
      <Card>
        <CardContent className="pt-5 sm:pt-6">
          <StudentPicker state={state} idPrefix="monthly" />
        </CardContent>
      </Card>
      {student && session ? (
        <StudentMonthly key={`${student.id}|${selection.academicYear}`} state={state} />
      ) : state.loading.student ? (
        <StudentLoading />
      ) : (
        <NoStudent what="monthly fees" />
      )}
    </>
  );
}

function StudentMonthly({ state }: { state: ReturnType<typeof useFeeSelection> }) {
  const student = state.student!;
  const session = state.session!;
  const academicYear = session.sessionName;
  const today = indiaToday();

  const entries = useQuery(monthlyEntriesQuery(student.id, academicYear));
  const structures = useQuery(feeStructuresQuery());
  const receipts = useQuery(studentReceiptsQuery(student.id));
  useErrorToast(entries.error, 'Failed to fetch monthly entries');
  useErrorToast(structures.error, 'Failed to fetch fee structure');

  const draftState = useMonthlyDraft(student.id, academicYear, entries.data?.entries);
  const { draft } = draftState;
  const { details, setDetails, rememberReceiver } = usePaymentDetails();
  const controls = useSaveControls();
  const { setConfirming } = controls;
  const [created, setCreated] = useState<Receipt[]>([]);
  const save = useSaveMonthly();
  const clientId = useClientId();
  const saveRef = useRef<HTMLButtonElement>(null);

  const months = useMemo(() => sessionMonths(session.startDate, session.endDate), [session.startDate, session.endDate]);
  const saved = useMemo(() => new Map((entries.data?.entries ?? []).map((e) => [e.monthKey, e])), [entries.data]);
  const problems = useMemo(() => draftProblems(draft, months, saved), [draft, months, saved]);

  const ownSession = student.sessionId === session.id;
  const structure = structures.data?.find((s) => s.className === student.class && s.academicYear === academicYear);
  const structureMissing = ownSession && structures.isSuccess && !structure;
  const busFee = parseRupees(student.monthlyBusFee) ?? 0;
  const carried = entries.data ? (parseRupees(entries.data.previousBalance.balance) ?? 0) : 0;
  const readOnly = !ownSession || structureMissing || save.isPending;

  const pending = pendingHeads(draft, months, saved);
  const previousAmount = parseRupees(draft.previous.amount) ?? 0;
  const collecting = pending.reduce((s, h) => s + (parseRupees(h.value.amount) ?? 0), 0) + (problems.previous ? 0 : previousAmount);

  const request = () => {
    const body = {
      studentId: student.id,
      academicYear,
      entries: bulkEntries(student.id, draft, months, saved, '').map(({ submittedAt: _, ...e }) => e),
      previousBalancePaid: previousAmount > 0 ? draft.previous.amount.trim() : null,
      previousBalanceDate: previousAmount > 0 ? draft.previous.date || null : null,
      ...paymentDetailsBody(details),
    };
    return body;
  };

  const askToSave = () => {
    const first = Object.values(problems)[0];
    if (first) return toast.error({ title: 'Validation Error', description: first });
    if (pending.length === 0 && previousAmount === 0) {
      return toast.info({ title: 'No Changes', description: NO_NEW_DATA_MESSAGE });
    }
    const missing = paymentDetailsMissing(details);
    if (missing) return toast.error({ title: 'Validation Error', description: missing });
    setConfirming(true);
  };

  const doSave = () => {
    const core = request();
    const now = new Date().toISOString();
    const input = {
      ...core,
      entries: core.entries.map((e) => ({ ...e, submittedAt: now })),
      clientId: clientId.keyFor(core),
      timestamp: now,
      source: 'monthly-fee-management',
      version: 1,
    };
    save.mutate(input, {
      onSuccess: (answer) => {
        clientId.done();
        draftState.clear();
        rememberReceiver(details.receivedBy);
        setCreated((list) => [answer.receipt, ...list.filter((r) => r.id !== answer.receipt.id)]);
        toast.success({ title: 'Success', description: 'Monthly fee data saved successfully!', duration: 3000 });
      },
      onError: (error) => {
        const message = serverMessage(error) ?? 'Failed to save monthly fee data';
        toast.error({ title: 'Error', description: message });
        if (error instanceof ApiError && error.status === 409) void entries.refetch();
      },
    });
  };

  const refresh = async () => {
    const result = await entries.refetch();
    await receipts.refetch();
    if (result.isSuccess) toast.success({ title: 'Data Refreshed', description: 'Monthly fee data has been updated' });
  };

  const printLatest = () =>
    controls.printFirst(
      created[0] ??
        receipts.data?.find((r) => r.prefix === 'MON' && r.status === 'live' && r.academicYear === academicYear) ??
        receipts.data?.find((r) => r.status === 'live' && r.academicYear === academicYear),
      `No fee has been saved for ${student.name} in ${academicYear}.`,
    );
  const onKeyDown = controls.saveOnCtrlS(readOnly, askToSave);

  return (
    <div className="grid gap-4" onKeyDown={onKeyDown}>
      {structureMissing ? <StructureMissingAlert className={student.class} academicYear={academicYear} /> : null}
      {!ownSession ? (
        <Alert variant="info">
          <AlertDescription>
            {student.name} is now in {state.sessions.find((s) => s.id === student.sessionId)?.sessionName ?? 'another session'}. The months of {academicYear} are
            shown as recorded; what was still owed when they moved on is carried forward as a previous balance and collected in their current session.
          </AlertDescription>
        </Alert>
      ) : null}
      {entries.data && carried > 0 ? (
        <PreviousBalanceBanner
          summary={entries.data.previousBalance}
          value={draft.previous}
          problem={problems.previous}
          today={today}
          disabled={readOnly}
          onAmount={(amount) => draftState.setPrevious({ amount }, today)}
          onDate={(date) => draftState.setPrevious({ date }, today)}
        />
      ) : null}
      {draftState.restoredAt && !isEmptyDraft(draft) ? (
        <Alert variant="info">
          <HistoryIcon />
          <AlertDescription className="flex flex-wrap items-center justify-between gap-2">
            <span>Unsaved entries from {formatGeneratedAt(draftState.restoredAt)} were restored from this computer.</span>
            <Button size="sm" variant="outline" onClick={draftState.clear}>
              Discard them
            </Button>
          </AlertDescription>
        </Alert>
      ) : null}
      {created.map((r) => (
        <SavedReceipt key={r.id} receipt={r} />
      ))}
      <Card>
        <CardHeader className="pb-3">
          <CardTitle>
            {student.name} · {academicYear}
          </CardTitle>
          <CardDescription>
            {student.class}-{student.section} · Roll No. {student.rollNumber}
            {structure ? ` · Tuition ${rupees(structure.monthlyTuitionFee)} a month` : ''}
            {busFee > 0 ? ` · Bus ${rupees(student.monthlyBusFee)} a month` : ''}
          </CardDescription>
        </CardHeader>
        <CardContent className="grid gap-4">
          {entries.isPending ? (
            <div className="flex justify-center py-10">
              <Spinner className="size-6" label="Loading monthly fees" />
            </div>
          ) : entries.isError ? (
            <LoadFailedAlert message={`Failed to fetch monthly entries: ${entries.error.message}`} onRetry={() => entries.refetch()} />
          ) : (
            <MonthlyGrid
              months={months}
              saved={saved}
              draft={draft}
              problems={problems}
              expected={{ tuition: structure?.monthlyTuitionFee ?? null, bus: busFee > 0 ? student.monthlyBusFee : null }}
              today={today}
              disabled={readOnly || !draftState.ready}
              saveRef={saveRef}
              onAmount={(key, head, amount) => draftState.setAmount(key, head, amount, today)}
              onDate={draftState.setDate}
            />
          )}
          <p className="text-xs text-muted-foreground">
            Enter moves down to the same fee of the next month (dates fill in as today), ↑ ↓ move between months, Ctrl+S saves. Entries are kept on this computer until they are
            saved.
          </p>
        </CardContent>
      </Card>
      <Card>
        <CardContent className="grid gap-4 pt-5 sm:pt-6">
          <PaymentFields value={details} onChange={setDetails} idPrefix="monthly-pay" disabled={readOnly} />
          <div className="flex flex-wrap items-center justify-between gap-3 border-t pt-4">
            <p className="text-sm">
              To collect now: <strong className="tabular-nums">{formatINR(paise(collecting))}</strong>
              {pending.length > 0 ? (
                <span className="text-muted-foreground">
                  {' '}
                  ({pending.length} {pending.length === 1 ? 'fee' : 'fees'}
                  {previousAmount > 0 ? ' and previous balance' : ''})
                </span>
              ) : null}
            </p>
            <div className="flex flex-wrap gap-2">
              <SaveButtons onPrint={printLatest} onSave={askToSave} saveRef={saveRef} disabled={readOnly || !entries.isSuccess} saving={save.isPending}>
                <Button variant="outline" onClick={refresh} disabled={entries.isFetching}>
                  <RefreshCwIcon className={entries.isFetching ? 'animate-spin' : undefined} />
                  Refresh
                </Button>
              </SaveButtons>
            </div>
          </div>
        </CardContent>
      </Card>
      <SaveDialogs controls={controls} studentName={student.name} amount={collecting} onConfirm={doSave} />
    </div>
  );
}
