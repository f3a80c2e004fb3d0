import { useQuery } from '@tanstack/react-query';
import { IndianRupeeIcon, RefreshCwIcon } from 'lucide-react';
import { Suspense, useState, type ReactNode } from 'react';
import { parseRupees } from '@/domain/money';
import { FeeStatusPanels, FeeStatusQueue, FeeStatusStudentActions, FeeStatusStudentPanels, FeeStatusTools } from '@/web/app/feature-slots';
import { Deferred } from '@/web/components/deferred';
import { RecordPaymentDialog } from '@/web/components/fees/record-payment-dialog';
import { LoadFailedAlert } from '@/web/components/load-failed-alert';
import { Alert, AlertDescription } from '@/web/components/ui/alert';
import { Badge } from '@/web/components/ui/badge';
import { Button } from '@/web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/web/components/ui/card';
import { Spinner } from '@/web/components/ui/spinner';
import { StudentLoading } from './no-student';
import { rupees } from '@/web/lib/format';
import { isoToIndian } from '@/web/lib/ledger-api';
import { cn } from '@/web/lib/utils';
import { feeStatusQuery, type FeeStatus, type MonthBadge } from './api';
import { ReceiptHistory } from './receipt-history';
import { SchoolAdminOnly } from './school-admin-only';
import { StudentPicker } from './student-picker';
import { useErrorToast } from './use-error-toast';
import { useFeeSelection } from './use-fee-selection';

const BADGE: Record<MonthBadge, 'success' | 'warning' | 'destructive' | 'secondary'> = {
  Paid: 'success',
  Partial: 'warning',
  Pending: 'destructive',
  'Not Recorded': 'secondary',
};

const isZero = (amount: string) => (parseRupees(amount) ?? 0) === 0;

/** Student Fee Status (operations §2, §4): every figure from the server's fee-status answer. */
export function FeeStatusTab() {
  return (
    <section aria-labelledby="fee-status-heading" className="grid min-w-0 gap-4 [&>*]:min-w-0">
      <div>
        <h2 id="fee-status-heading" className="text-2xl font-semibold tracking-tight">
          Student Fee Status
        </h2>
        <p className="text-sm text-muted-foreground">Paid and pending months, yearly fees, balances carried from earlier sessions, and every receipt.</p>
      </div>
      <SchoolAdminOnly>
        <StatusScreen />
      </SchoolAdminOnly>
    </section>
  );
}

function StatusScreen() {
  const state = useFeeSelection();
  useErrorToast(state.errors.sessions, 'Failed to fetch academic sessions');
  useErrorToast(state.errors.roster ?? state.errors.classes, 'Failed to fetch students');
  return (
    <>
      <div className="flex justify-end">
        <Suspense fallback={null}>
          <FeeStatusTools />
        </Suspense>
      </div>
      <Suspense fallback={null}>
        <FeeStatusQueue />
      </Suspense>
      <Card>
        <CardContent className="pt-5 sm:pt-6">
          <StudentPicker state={state} idPrefix="status" />
        </CardContent>
      </Card>
      {state.student && state.session ? (
        <StudentStatus studentId={state.student.id} academicYear={state.session.sessionName} state={state} />
      ) : state.loading.student ? (
        <StudentLoading />
      ) : (
        <p className="rounded-lg border border-dashed px-4 py-8 text-center text-sm text-muted-foreground">
          Select the class, section and roll number of a student to see their fee status.
        </p>
      )}
    </>
  );
}

function StudentStatus({ studentId, academicYear, state }: { studentId: string; academicYear: string; state: ReturnType<typeof useFeeSelection> }) {
  const status = useQuery(feeStatusQuery(studentId, academicYear));
  const [paying, setPaying] = useState(false);
  if (status.isPending) {
    return (
      <div className="flex justify-center py-10">
        <Spinner className="size-6" label="Loading fee status" />
      </div>
    );
  }
  if (status.isError) {
    return (
      <LoadFailedAlert message={status.error.message} onRetry={() => status.refetch()} />
    );
  }
  const data = status.data;
  return (
    <div className="grid gap-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div>
          <p className="text-lg font-semibold">{data.student.name}</p>
          <p className="text-sm text-muted-foreground">
            {data.student.className}-{data.student.section} · Roll No. {data.student.rollNumber} · {data.session.name} ({isoToIndian(data.session.startDate)} to{' '}
            {isoToIndian(data.session.endDate)})
          </p>
        </div>
        <div className="flex flex-wrap gap-2">
          <Button variant="outline" onClick={() => status.refetch()} disabled={status.isFetching}>
            <RefreshCwIcon className={status.isFetching ? 'animate-spin' : undefined} />
            Refresh
          </Button>
          {state.student ? (
            <Button onClick={() => setPaying(true)}>
              <IndianRupeeIcon />
              Record Fee Payment
            </Button>
          ) : null}
          <Suspense fallback={null}>
            <FeeStatusStudentActions studentId={data.student.id} studentName={data.student.name} />
          </Suspense>
        </div>
      </div>
      {data.closed ? (
        <Alert variant="info">
          <AlertDescription>
            The {data.session.name} session is closed for {data.student.name}: what was owed on leaving it was carried forward as a previous balance, where it is
            collected.
          </AlertDescription>
        </Alert>
      ) : null}
      {data.structure === null ? (
        <Alert variant="warning">
          <AlertDescription>
            No fee structure is set up for {data.student.className} in {data.session.name}, so nothing is expected for this session.
          </AlertDescription>
        </Alert>
      ) : null}
      <PreviousSessionCard data={data} />
      <MonthCards data={data} />
      <div className="grid gap-4 lg:grid-cols-2">
        <YearlyCard data={data} />
        <LedgerCard data={data} />
      </div>
      <FeeStatusPanels student={data.student} academicYear={academicYear} account={data.account} previousBalance={data.previousBalance} ledger={data.ledger} />
      <Card>
        <CardHeader>
          <CardTitle>Receipts</CardTitle>
          <CardDescription>Receipts of {data.session.name}, newest first. Cancelled receipts stay visible with their reason.</CardDescription>
        </CardHeader>
        <CardContent>
          <ReceiptHistory receipts={data.receipts} emptyText={`No receipts for ${data.student.name} in ${data.session.name} yet.`} />
        </CardContent>
      </Card>
      {/* the message log is the bottom of the page: it loads once the dues have painted (decision 0044) */}
      <Deferred>
        <Suspense fallback={null}>
          <FeeStatusStudentPanels studentId={data.student.id} />
        </Suspense>
      </Deferred>
      {state.student ? <RecordPaymentDialog student={state.student} open={paying} onOpenChange={setPaying} /> : null}
    </div>
  );
}

function PreviousSessionCard({ data }: { data: FeeStatus }) {
  const p = data.previousBalance;
  return (
    <Card role="region" aria-label="Previous session outstanding balance">
      <CardHeader className="pb-3">
        <CardTitle className="text-base">Previous Session Outstanding Balance</CardTitle>
      </CardHeader>
      <CardContent className="grid gap-3">
        <div className="grid grid-cols-3 gap-3">
          <Figure label="Monthly Outstanding" value={rupees(p.monthlyOutstanding)} />
          <Figure label="Yearly Outstanding" value={rupees(p.yearlyOutstanding)} />
          <Figure label="Total" value={rupees(p.balance)} strong tone={isZero(p.balance) ? undefined : 'warn'} />
        </div>
        {p.balances.length > 0 ? (
          <ul className="grid gap-1 text-sm text-muted-foreground">
            {p.balances.map((b) => (
              <li key={b.id}>
                {b.academicYear} ({b.className}): {rupees(b.balance)} still owed of {rupees(b.recordedBalance)}
                {isZero(b.paid) ? '' : `, ${rupees(b.paid)} collected`}
              </li>
            ))}
          </ul>
        ) : (
          <p className="text-sm text-muted-foreground">Nothing is owed from earlier sessions.</p>
        )}
      </CardContent>
    </Card>
  );
}

function MonthCards({ data }: { data: FeeStatus }) {
  return (
    <Card>
      <CardHeader className="pb-3">
        <CardTitle className="text-base">Monthly Fees</CardTitle>
        <CardDescription>
          Tuition {data.structure ? rupees(data.structure.monthlyTuitionFee) : '—'} and bus {rupees(data.student.monthlyBusFee)} a month.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <ul className="grid grid-cols-2 gap-2 lg:grid-cols-3 xl:grid-cols-4" aria-label="Months">
          {data.account.months.map((m) => (
            <li key={m.key} aria-label={`${m.label}: ${m.status}`} className={cn('grid gap-1.5 rounded-lg border p-3 text-sm', !m.due && 'border-dashed bg-muted/30')}>
              <div className="flex flex-wrap items-center justify-between gap-x-2 gap-y-1">
                <span className="font-medium">{m.label}</span>
                <Badge variant={BADGE[m.status]}>{m.status}</Badge>
              </div>
              <Line label="Tuition" value={rupees(m.tuition.paid)} of={rupees(m.tuition.expected)} />
              <Line label="Bus" value={rupees(m.bus.paid)} of={rupees(m.bus.expected)} />
              {!isZero(m.discount) ? <Line label="Discount" value={rupees(m.discount)} /> : null}
              {[...m.tuition.grants, ...m.bus.grants].map((g, i) => (
                <Line key={i} label={`Concession: ${g.name}`} value={`−${rupees(g.amount)}`} />
              ))}
              {!isZero(m.outstanding) && m.due ? <Line label="Outstanding" value={rupees(m.outstanding)} tone="warn" /> : null}
            </li>
          ))}
        </ul>
      </CardContent>
    </Card>
  );
}

function YearlyCard({ data }: { data: FeeStatus }) {
  const y = data.account.yearly;
  const statusText = y.status === 'paid' ? 'Paid' : y.status === 'partial' ? `Partial ${y.paidCount}/${y.applicableCount}` : 'Pending';
  return (
    <Card role="region" aria-label="Annual fee collection">
      <CardHeader className="flex-row items-start justify-between gap-2 pb-3">
        <CardTitle className="text-base">Annual Fee Collection</CardTitle>
        <Badge variant={y.status === 'paid' ? 'success' : y.status === 'partial' ? 'warning' : 'destructive'}>{statusText}</Badge>
      </CardHeader>
      <CardContent className="grid gap-2 text-sm">
        {y.heads.map((h) => (
          <div key={h.head} className="flex items-center justify-between gap-2">
            <span>{h.label}</span>
            <span className="flex items-center gap-2">
              <span className="tabular-nums text-muted-foreground">
                {h.status === 'not_applicable' ? '—' : `${rupees(h.paid)} / ${rupees(h.expected)}`}
                {h.grants.map((g) => ` · Concession: ${g.name} −${rupees(g.amount)}`).join('')}
              </span>
              <Badge variant={h.status === 'paid' ? 'success' : h.status === 'pending' ? 'warning' : 'secondary'}>
                {h.status === 'paid' ? 'Paid' : h.status === 'pending' ? 'Pending' : 'Not applicable'}
              </Badge>
            </span>
          </div>
        ))}
        {data.account.extras.map((e) => (
          <div key={e.head} className="flex items-center justify-between gap-2">
            <span>{e.label}</span>
            <span className="tabular-nums text-muted-foreground">{rupees(e.paid)}</span>
          </div>
        ))}
        <div className="mt-1 grid grid-cols-3 gap-3 border-t pt-3">
          <Figure label="Expected" value={rupees(y.expected)} />
          <Figure label="Paid" value={rupees(y.paid)} />
          <Figure label="Pending" value={rupees(y.outstanding)} tone={isZero(y.outstanding) ? undefined : 'warn'} />
        </div>
        <p className="text-xs text-muted-foreground">
          {y.paidCount} of {y.applicableCount} fees paid ({y.totalCount} fee types)
        </p>
      </CardContent>
    </Card>
  );
}

function LedgerCard({ data }: { data: FeeStatus }) {
  const l = data.ledger;
  return (
    <Card role="region" aria-label="Student fee ledger">
      <CardHeader className="pb-3">
        <CardTitle className="text-base">Student Fee Ledger</CardTitle>
      </CardHeader>
      <CardContent className="grid grid-cols-2 gap-3">
        <Figure label="Pending Fees (Annual)" value={rupees(l.pendingFeesAnnual)} />
        <Figure label="Total Paid" value={rupees(l.totalPaid)} />
        <Figure
          label="Outstanding Balance (till date)"
          value={l.paidUp ? 'Paid Up' : rupees(l.outstandingTillDate)}
          strong
          tone={l.paidUp ? 'good' : 'warn'}
        />
        <Figure label="Months Paid" value={`${l.monthsPaid} of ${l.totalMonths}`} />
        <Figure label="Months Pending" value={String(l.monthsPending)} />
        <Figure label="Average Monthly" value={rupees(l.averageMonthly)} />
        <Figure label="Total Discount Given" value={rupees(l.totalDiscount)} />
      </CardContent>
    </Card>
  );
}

function Figure({ label, value, strong, tone }: { label: string; value: ReactNode; strong?: boolean; tone?: 'warn' | 'good' | undefined }) {
  return (
    <div className="grid gap-0.5">
      <span className="text-xs text-muted-foreground">{label}</span>
      <span
        className={cn(
          'tabular-nums',
          strong ? 'text-lg font-semibold' : 'font-medium',
          tone === 'warn' && 'text-amber-700 dark:text-warning',
          tone === 'good' && 'text-success',
        )}
      >
        {value}
      </span>
    </div>
  );
}

/** A figure of a month card; the expected amount (`of`) is left out on narrow phones. */
function Line({ label, value, of, tone }: { label: string; value: string; of?: string; tone?: 'warn' }) {
  return (
    <div className="flex flex-wrap justify-between gap-x-2 text-xs">
      <span className="text-muted-foreground">{label}</span>
      <span className={cn('tabular-nums', tone === 'warn' && 'font-medium text-amber-700 dark:text-warning')}>
        {value}
        {of ? <span className="hidden text-muted-foreground sm:inline"> / {of}</span> : null}
      </span>
    </div>
  );
}
