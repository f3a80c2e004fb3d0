import { useQuery } from '@tanstack/react-query';
import {
  BookOpenCheckIcon,
  CalendarDaysIcon,
  CalendarRangeIcon,
  ExternalLinkIcon,
  FileDownIcon,
  FileSpreadsheetIcon,
  LandmarkIcon,
  LayoutListIcon,
  ScaleIcon,
  TriangleAlertIcon,
  type LucideIcon,
} from 'lucide-react';
import { lazy, Suspense, useState } from 'react';
import { REPORT_TITLES, type ReportKind } from '@/domain/report-document';
import { ReportsExtraCards } from '@/web/app/feature-slots';
import { indiaDate } from '@/domain/sessions';
import { toast } from '@/web/components/toaster';
import { Button } from '@/web/components/ui/button';
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '@/web/components/ui/card';
import { Input, NativeSelect } from '@/web/components/ui/input';
import { Label } from '@/web/components/ui/label';
import { refusalMessage } from '@/web/lib/form-errors';
import { rupees } from '@/web/lib/format';
import { schoolStatsQuery } from '@/web/lib/school-stats';
import { sessionsQuery } from '@/web/lib/school-data';
import { downloadFile, printUrl, reportPath } from './api';
import { FinancialReportDialog } from './financial-report-dialog';
import { MonthlyReportDialog } from './monthly-report-dialog';

// recharts (over 100 kB gzip) follows the report cards instead of holding them back (decision 0044)
const DashboardCharts = lazy(() => import('./charts').then((m) => ({ default: m.DashboardCharts })));

interface CardSpec {
  kind: ReportKind;
  icon: LucideIcon;
  description: string;
  bySession?: boolean;
}

const CARDS: CardSpec[] = [
  { kind: 'yearly', icon: CalendarRangeIcon, description: 'The session month by month: fees due, concession, received and outstanding, and the yearly fees by head.', bySession: true },
  { kind: 'class-wise', icon: LayoutListIcon, description: 'Each class and section: fees due till date, concession, received, outstanding, advance and other fees.', bySession: true },
  { kind: 'income-expense', icon: ScaleIcon, description: 'Money received and spent in each month of the session, and expenses by category.', bySession: true },
  { kind: 'pending-fees', icon: TriangleAlertIcon, description: 'Every student with dues on one line: months due (Apr–Nov), monthly, yearly and previous balance, sortable by class or amount.' },
  { kind: 'session', icon: LandmarkIcon, description: 'The whole session by class, with balances carried forward, income and expenses.', bySession: true },
];

/** The Reports tab (operations §2): six report cards, the Day Book, the Financial report, charts and the Quick Financial Summary. */
export function ReportsTab() {
  const sessions = useQuery(sessionsQuery());
  const [pickedYear, setPickedYear] = useState<string | null>(null);
  const [monthlyOpen, setMonthlyOpen] = useState(false);
  const [financialOpen, setFinancialOpen] = useState(false);
  const [day, setDay] = useState(() => indiaDate(new Date()));
  const active = sessions.data?.find((s) => s.isActive);
  const year = pickedYear ?? active?.sessionName ?? sessions.data?.[0]?.sessionName ?? '';

  const paramsFor = (spec: CardSpec): Record<string, string | undefined> => (spec.bySession ? { academicYear: year || undefined } : {});
  const open = (kind: ReportKind, params: Record<string, string | undefined>) => window.open(printUrl({ report: kind, ...params }), '_blank');
  const download = (kind: ReportKind, params: Record<string, string | undefined>, ext: '.xlsx' | '.csv') =>
    void downloadFile(reportPath(kind, params, ext), `${kind}-report${ext}`).catch((error: unknown) =>
      toast.error({ title: 'Error', description: refusalMessage(error, 'Failed to generate report') }),
    );

  return (
    <section aria-labelledby="reports-heading" className="grid gap-6">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h2 id="reports-heading" className="text-2xl font-semibold tracking-tight">Reports</h2>
          <p className="text-sm text-muted-foreground">Reports are available to all users. Each opens as a printable page and downloads as Excel or CSV.</p>
        </div>
        <div className="flex flex-wrap items-end gap-2">
          {sessions.data && sessions.data.length > 0 ? (
            <div className="grid gap-1">
              <Label htmlFor="reports-session">Session</Label>
              <NativeSelect id="reports-session" className="w-auto" value={year} onChange={(e) => setPickedYear(e.target.value)}>
                {sessions.data.map((s) => (
                  <option key={s.id} value={s.sessionName}>
                    {s.sessionName}
                    {s.isActive ? ' (active)' : ''}
                  </option>
                ))}
              </NativeSelect>
            </div>
          ) : null}
          <Button onClick={() => setFinancialOpen(true)}>
            <FileSpreadsheetIcon />
            Financial Report
          </Button>
        </div>
      </div>

      <QuickSummary />

      <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3">
        <ReportCard kind="monthly" icon={CalendarDaysIcon} description="A month's tuition and bus fees by class, the money received in the month and its expenses.">
          <Button onClick={() => setMonthlyOpen(true)}>
            <ExternalLinkIcon />
            Open Monthly Report
          </Button>
        </ReportCard>
        {CARDS.map((spec) => (
          <ReportCard key={spec.kind} kind={spec.kind} icon={spec.icon} description={spec.description}>
            <Button onClick={() => open(spec.kind, paramsFor(spec))} aria-label={`View ${REPORT_TITLES[spec.kind]}`}>
              <ExternalLinkIcon />
              View
            </Button>
            <Button variant="outline" onClick={() => download(spec.kind, paramsFor(spec), '.xlsx')} aria-label={`Download ${REPORT_TITLES[spec.kind]} as Excel`}>
              <FileSpreadsheetIcon />
              Excel
            </Button>
            <Button variant="outline" onClick={() => download(spec.kind, paramsFor(spec), '.csv')} aria-label={`Download ${REPORT_TITLES[spec.kind]} as CSV`}>
              <FileDownIcon />
              CSV
            </Button>
          </ReportCard>
        ))}
        <ReportCard kind="day-book" icon={BookOpenCheckIcon} description="The receipts of a day by payment mode and the day's expenses, with totals for the cash counter.">
          <Input type="date" aria-label="Day Book date" className="w-auto" value={day} onChange={(e) => setDay(e.target.value)} />
          <Button onClick={() => open('day-book', { date: day })} aria-label="View Day Book">
            <ExternalLinkIcon />
            View
          </Button>
          <Button variant="outline" onClick={() => download('day-book', { date: day }, '.xlsx')} aria-label="Download Day Book as Excel">
            <FileSpreadsheetIcon />
            Excel
          </Button>
        </ReportCard>
        <Suspense fallback={null}>
          <ReportsExtraCards />
        </Suspense>
      </div>

      <div className="grid gap-3">
        <h3 className="text-lg font-semibold">At a glance</h3>
        <Suspense fallback={<div className="h-72" />}>
          <DashboardCharts />
        </Suspense>
      </div>

      <MonthlyReportDialog open={monthlyOpen} onOpenChange={setMonthlyOpen} />
      <FinancialReportDialog open={financialOpen} onOpenChange={setFinancialOpen} />
    </section>
  );
}

function ReportCard({ kind, icon: Icon, description, children }: { kind: ReportKind; icon: LucideIcon; description: string; children: React.ReactNode }) {
  return (
    <Card className="flex flex-col" data-testid={`report-card-${kind}`}>
      <CardHeader className="flex-row items-start gap-3">
        <span className="flex size-10 shrink-0 items-center justify-center rounded-lg bg-primary/10 text-primary">
          <Icon className="size-5" />
        </span>
        <div className="grid gap-1">
          <CardTitle className="text-base">{REPORT_TITLES[kind]}</CardTitle>
          <CardDescription>{description}</CardDescription>
        </div>
      </CardHeader>
      <CardFooter className="mt-auto flex-wrap gap-2">{children}</CardFooter>
    </Card>
  );
}

/** Quick Financial Summary (operations §2): This Month Income, Total Expenses, Total Students, Pending Fees. */
function QuickSummary() {
  const stats = useQuery(schoolStatsQuery());
  const s = stats.data;
  const items = [
    { label: 'This Month Income', value: s ? rupees(s.thisMonthIncome) : '—', hint: s?.currentMonthLabel ?? '' },
    { label: 'Total Expenses', value: s ? rupees(s.totalExpenses) : '—', hint: 'Current session' },
    { label: 'Total Students', value: s ? String(s.totalStudents) : '—', hint: 'Active students' },
    { label: 'Pending Fees', value: s ? rupees(s.pendingFees) : '—', hint: 'Outstanding till date' },
  ];
  return (
    <Card>
      <CardHeader className="pb-2">
        <CardTitle className="text-base">Quick Financial Summary</CardTitle>
        {stats.isError ? <CardDescription className="text-destructive">Unable to load data. Please refresh.</CardDescription> : null}
      </CardHeader>
      <CardContent>
        <dl className="grid grid-cols-2 gap-3 lg:grid-cols-4">
          {items.map((i) => (
            <div key={i.label} className="rounded-lg border bg-muted/30 p-3">
              <dt className="text-xs font-medium text-muted-foreground">{i.label}</dt>
              <dd className="text-lg font-semibold tabular-nums">{i.value}</dd>
              <dd className="text-xs text-muted-foreground">{i.hint}</dd>
            </div>
          ))}
        </dl>
      </CardContent>
    </Card>
  );
}
