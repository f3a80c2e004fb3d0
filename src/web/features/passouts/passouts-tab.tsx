import { useQuery } from '@tanstack/react-query';
import { DownloadIcon, IndianRupeeIcon, UserRoundCheckIcon } from 'lucide-react';
import { useMemo, useState } from 'react';
import { formatINR, paise, parseRupees } from '@/domain/money';
import type { FeeStudent } from '@/web/components/fees/fee-student';
import { RecordPaymentDialog } from '@/web/components/fees/record-payment-dialog';
import { toast } from '@/web/components/toaster';
import { LoadFailedAlert } from '@/web/components/load-failed-alert';
import { Alert, AlertDescription, AlertTitle } from '@/web/components/ui/alert';
import { Badge } from '@/web/components/ui/badge';
import { Button } from '@/web/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/web/components/ui/card';
import { NativeSelect } from '@/web/components/ui/input';
import { Label } from '@/web/components/ui/label';
import { Spinner } from '@/web/components/ui/spinner';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/web/components/ui/table';
import { rupees } from '@/web/lib/format';
import { cn } from '@/web/lib/utils';
import { downloadFile, isoToIndian } from '@/web/lib/ledger-api';
import { balanceReportPath, passoutsQuery, type Passout } from './api';
import { CreatePassoutsPanel } from './create-passouts-panel';

/** Two-line headers keep the eight columns within the page. */
const HEAD = 'h-auto whitespace-normal px-2 py-2 align-bottom';
const owes = (p: Passout) => (parseRupees(p.totalOutstanding) ?? 0) > 0;
/** Passout amounts are whole rupees (operations §2). */
const whole = (amount: string) => rupees(amount, { decimals: false });

/** The Passouts tab (operations §2): graduated and discharged students and the dues they leave behind. */
export function PassoutsTab() {
  const passouts = useQuery(passoutsQuery());
  const [year, setYear] = useState<number | null>(null);
  const [collecting, setCollecting] = useState<FeeStudent | null>(null);

  const all = useMemo(() => passouts.data ?? [], [passouts.data]);
  const years = useMemo(() => [...new Set(all.map((p) => p.graduationYear))].sort((a, b) => b - a), [all]);
  const shown = year === null ? all : all.filter((p) => p.graduationYear === year);
  const groups = years.filter((y) => year === null || y === year).map((y) => ({ year: y, rows: shown.filter((p) => p.graduationYear === y) }));
  const withBalance = shown.filter(owes).length;
  const totalOutstanding = shown.reduce((s, p) => s + (parseRupees(p.totalOutstanding) ?? 0), 0);

  const download = async (format: 'csv' | 'pdf') => {
    try {
      await downloadFile(balanceReportPath(format, year), `passout-balance-report.${format}`);
    } catch (error) {
      toast.error({ title: 'Download Failed', description: error instanceof Error ? error.message : 'Failed to download the balance report' });
    }
  };

  const collect = (p: Passout) =>
    setCollecting({ id: p.studentId, name: p.name, class: p.lastClass, section: p.section, rollNumber: p.rollNumber, sessionId: null, monthlyBusFee: '0.00' });

  return (
    <section aria-labelledby="passouts-heading" className="grid min-w-0 gap-4 [&>*]:min-w-0">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h2 id="passouts-heading" className="text-2xl font-semibold tracking-tight">
            {passouts.isSuccess ? `Passouts (${all.length})` : 'Passouts'}
          </h2>
          <p className="text-sm text-muted-foreground">Graduated and discharged students. What they still owe stays collectable.</p>
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor="passout-year-filter">Graduation Year</Label>
          <NativeSelect id="passout-year-filter" className="w-40" value={year ?? ''} onChange={(e) => setYear(e.target.value ? Number(e.target.value) : null)}>
            <option value="">All Years</option>
            {years.map((y) => (
              <option key={y} value={y}>
                {y}
              </option>
            ))}
          </NativeSelect>
        </div>
      </div>

      <CreatePassoutsPanel />

      <div className="grid grid-cols-3 gap-2 sm:gap-3">
        <SummaryCard label="Total Passouts" value={String(shown.length)} />
        <SummaryCard label="Graduation Years" value={String(year === null ? years.length : groups.length)} />
        <SummaryCard label="With Outstanding Balance" value={String(withBalance)} />
      </div>

      {totalOutstanding > 0 ? (
        <Alert variant="warning" aria-label="Total Outstanding Balance">
          <AlertTitle>Total Outstanding Balance: {formatINR(paise(totalOutstanding), { decimals: false })}</AlertTitle>
          <AlertDescription className="flex flex-wrap items-center justify-between gap-2">
            <span>
              {withBalance} {withBalance === 1 ? 'passout still owes' : 'passouts still owe'} fees{year === null ? '' : ` (graduation year ${year})`}.
            </span>
            <span className="flex flex-wrap gap-2">
              <Button size="sm" variant="outline" onClick={() => download('csv')}>
                <DownloadIcon />
                Download Balance Report (CSV)
              </Button>
              <Button size="sm" variant="outline" onClick={() => download('pdf')}>
                <DownloadIcon />
                Download Balance Report (PDF)
              </Button>
            </span>
          </AlertDescription>
        </Alert>
      ) : null}

      {passouts.isPending ? (
        <div className="flex justify-center py-10">
          <Spinner className="size-6" label="Loading passouts" />
        </div>
      ) : passouts.isError ? (
        <LoadFailedAlert message={`Failed to fetch passouts: ${passouts.error.message}`} onRetry={() => passouts.refetch()} />
      ) : all.length === 0 ? (
        <Card>
          <CardContent className="flex flex-col items-center gap-2 py-10 text-center sm:py-12">
            <span className="flex size-12 items-center justify-center rounded-full bg-primary/10 text-primary">
              <UserRoundCheckIcon className="size-6" />
            </span>
            <p className="text-base font-medium">No Passouts Yet</p>
            <p className="max-w-md text-sm text-muted-foreground">Students from Class 12 will appear here after academic session transitions</p>
          </CardContent>
        </Card>
      ) : (
        groups.map((g) => (
          <Card key={g.year} role="region" aria-label={`Graduation Year ${g.year}`}>
            <CardHeader className="pb-2">
              <CardTitle className="text-base">
                Graduation Year {g.year} ({g.rows.length})
              </CardTitle>
            </CardHeader>
            <CardContent>
              <Table>
                <TableHeader>
                  <TableRow>
                    <TableHead className={HEAD}>Name</TableHead>
                    <TableHead className={HEAD}>Roll Number</TableHead>
                    <TableHead className={HEAD}>Last Class</TableHead>
                    <TableHead className={cn(HEAD, 'text-right')}>Monthly Outstanding</TableHead>
                    <TableHead className={cn(HEAD, 'text-right')}>Yearly Outstanding</TableHead>
                    <TableHead className={cn(HEAD, 'text-right')}>Total Outstanding</TableHead>
                    <TableHead className={HEAD}>Passout Date</TableHead>
                    <TableHead className={HEAD}>
                      <span className="sr-only">Actions</span>
                    </TableHead>
                  </TableRow>
                </TableHeader>
                <TableBody>
                  {g.rows.map((p) => (
                    <TableRow key={p.id}>
                      <TableCell className="min-w-36 px-2 font-medium">
                        {p.name}
                        {p.kind === 'discharged' ? (
                          <Badge variant="secondary" className="ml-1.5" title={p.reason}>
                            Discharged
                          </Badge>
                        ) : null}
                      </TableCell>
                      <TableCell className="px-2">{p.rollNumber}</TableCell>
                      <TableCell className="whitespace-nowrap px-2">
                        {p.lastClass}-{p.section}
                      </TableCell>
                      <TableCell className="whitespace-nowrap px-2 text-right tabular-nums">{whole(p.outstandingMonthlyFees)}</TableCell>
                      <TableCell className="whitespace-nowrap px-2 text-right tabular-nums">{whole(p.outstandingYearlyFees)}</TableCell>
                      <TableCell className="whitespace-nowrap px-2 text-right font-medium tabular-nums">
                        {owes(p) ? whole(p.totalOutstanding) : <Badge variant="success">Paid</Badge>}
                      </TableCell>
                      <TableCell className="whitespace-nowrap px-2">{isoToIndian(p.passoutDate)}</TableCell>
                      <TableCell className="px-2 text-right">
                        {owes(p) ? (
                          <Button size="sm" variant="outline" onClick={() => collect(p)} aria-label={`Collect dues from ${p.name}`}>
                            <IndianRupeeIcon />
                            Collect dues
                          </Button>
                        ) : null}
                      </TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            </CardContent>
          </Card>
        ))
      )}
      <RecordPaymentDialog student={collecting} dues open={collecting !== null} onOpenChange={(open) => !open && setCollecting(null)} />
    </section>
  );
}

function SummaryCard({ label, value }: { label: string; value: string }) {
  return (
    <Card role="group" aria-label={label}>
      <CardContent className="grid content-between gap-1 px-3 py-3 sm:px-6 sm:py-5">
        <span className="text-xs text-muted-foreground sm:text-sm">{label}</span>
        <span className="text-xl font-semibold tabular-nums sm:text-2xl">{value}</span>
      </CardContent>
    </Card>
  );
}
