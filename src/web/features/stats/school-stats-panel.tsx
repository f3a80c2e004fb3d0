import { useQuery } from '@tanstack/react-query';
import {
  BusIcon,
  CalendarCheckIcon,
  CalendarClockIcon,
  CalendarRangeIcon,
  IndianRupeeIcon,
  LoaderCircleIcon,
  RefreshCwIcon,
  TriangleAlertIcon,
  UsersIcon,
  WalletIcon,
  type LucideIcon,
} from 'lucide-react';
import { useEffect } from 'react';
import { Button } from '@/web/components/ui/button';
import { Card } from '@/web/components/ui/card';
import { Progress } from '@/web/components/ui/progress';
import { clearTokens } from '@/web/lib/auth-storage';
import { rupees } from '@/web/lib/format';
import { ApiError } from '@/web/lib/request';
import { schoolStatsQuery, type SchoolStats } from '@/web/lib/school-stats';

/**
 * The top of the Students tab (operations §2): the notice bar while stats load or fail, the eight
 * stat cards and the Collection Progress bar.
 */
export function SchoolStatsPanel() {
  const stats = useQuery(schoolStatsQuery());

  // operations §4: a 401 or 403 on school stats drops the stored sign-in and reloads
  const denied = stats.error instanceof ApiError && (stats.error.status === 401 || stats.error.status === 403);
  useEffect(() => {
    if (!denied) return;
    clearTokens();
    window.location.reload();
  }, [denied]);

  return (
    <section aria-label="School financial overview" className="grid gap-3">
      {stats.isPending ? (
        <Notice>
          <LoaderCircleIcon className="size-4 animate-spin" />
          Loading financial data...
        </Notice>
      ) : stats.isError ? (
        <Notice tone="error">
          <TriangleAlertIcon className="size-4" />
          <span className="flex-1">Unable to load data. Please refresh.</span>
          <Button size="sm" variant="outline" onClick={() => void stats.refetch()} disabled={stats.isFetching}>
            <RefreshCwIcon className={stats.isFetching ? 'animate-spin' : undefined} />
            Refresh Data
          </Button>
        </Notice>
      ) : null}
      <StatCards stats={stats.data} />
      <CollectionProgress stats={stats.data} />
    </section>
  );
}

function Notice({ children, tone = 'info' }: { children: React.ReactNode; tone?: 'info' | 'error' }) {
  return (
    <div
      role={tone === 'error' ? 'alert' : 'status'}
      className={
        tone === 'error'
          ? 'flex flex-wrap items-center gap-2 rounded-lg border border-destructive/40 bg-destructive/10 px-3 py-2 text-sm text-destructive'
          : 'flex items-center gap-2 rounded-lg border bg-muted/60 px-3 py-2 text-sm text-muted-foreground'
      }
    >
      {children}
    </div>
  );
}

interface CardSpec {
  label: string;
  value: string;
  hint: string;
  icon: LucideIcon;
  tone: string;
}

function cardsOf(s: SchoolStats | undefined): CardSpec[] {
  const v = (text: string | undefined) => (s ? (text ?? '—') : '—');
  return [
    { label: 'Total Students', value: v(s && String(s.totalStudents)), hint: 'Active students', icon: UsersIcon, tone: 'text-primary bg-primary/10' },
    { label: 'Total Revenue', value: v(s && rupees(s.totalRevenue)), hint: 'All sessions combined', icon: IndianRupeeIcon, tone: 'text-success bg-success/10' },
    {
      label: s ? `${s.lastMonthLabel} Payments` : 'Last Month Payments',
      value: v(s && String(s.paidStudents)),
      hint: s ? `of ${s.totalStudents} students paid in full` : 'Students paid for last month',
      icon: CalendarCheckIcon,
      tone: 'text-sky-600 bg-sky-500/10 dark:text-sky-400',
    },
    {
      label: 'Outstanding Balance Till Date',
      value: v(s && rupees(s.pendingFees)),
      hint: s ? `${s.pendingStudents} ${s.pendingStudents === 1 ? 'student' : 'students'} with dues` : 'Dues up to this month',
      icon: CalendarClockIcon,
      tone: 'text-destructive bg-destructive/10',
    },
    {
      label: 'Expected Fee This Month',
      value: v(s && rupees(s.expectedMonthlyIncome)),
      hint: s ? `Tuition and bus, ${s.currentMonthLabel}` : 'Tuition and bus fees',
      icon: CalendarRangeIcon,
      tone: 'text-violet-600 bg-violet-500/10 dark:text-violet-400',
    },
    {
      label: 'Expected Yearly Fee',
      value: v(s && rupees(s.yearlyFeesPotential)),
      hint: s ? `Yearly fees of ${s.session.name}` : 'Yearly fees of the session',
      icon: CalendarRangeIcon,
      tone: 'text-amber-800 bg-warning/15 dark:text-warning',
    },
    { label: 'Bus Fee Collections', value: v(s && rupees(s.currentSessionBusRevenue)), hint: 'Current session only', icon: BusIcon, tone: 'text-teal-600 bg-teal-500/10 dark:text-teal-400' },
    { label: 'Total Expenses', value: v(s && rupees(s.totalExpenses)), hint: 'Current session', icon: WalletIcon, tone: 'text-rose-600 bg-rose-500/10 dark:text-rose-400' },
  ];
}

/**
 * A figure is written whole, as large as its card allows: up to 20 px, and smaller as the text grows
 * or the card narrows (a container query width, `cqi`, of the figure's column). A bold tabular digit
 * or the rupee sign is up to 0.72 of the font size and a comma or point 0.4 (measured in Chromium's
 * fallback font, wider than Inter). The title holds the figure too.
 */
function figureFontSize(value: string): string {
  const ems = [...value].reduce((sum, c) => sum + (c === ',' || c === '.' ? 0.4 : 0.72), 0);
  return `min(1.25rem, ${(97 / Math.max(ems, 1)).toFixed(2)}cqi)`;
}

function StatCards({ stats }: { stats: SchoolStats | undefined }) {
  // two columns even on a phone, so the eight figures fit on one screen; icons from 640 px up; four
  // columns only from 1280 px, where a figure still has 130 px (at 1024 px beside the menu it had 93)
  return (
    <ul className="grid grid-cols-2 gap-2 sm:gap-3 xl:grid-cols-4">
      {cardsOf(stats).map((c) => (
        <li key={c.label}>
          <Card className="flex h-full items-start gap-3 p-3 sm:p-4">
            <span className={`hidden size-9 shrink-0 items-center justify-center rounded-lg sm:flex ${c.tone}`}>
              <c.icon className="size-5" />
            </span>
            <div className="@container min-w-0 flex-1">
              <p className="text-xs font-medium text-muted-foreground">{c.label}</p>
              <p className="truncate font-semibold tabular-nums" style={{ fontSize: figureFontSize(c.value) }} title={c.value}>
                {c.value}
              </p>
              <p className="text-xs text-muted-foreground">{c.hint}</p>
            </div>
          </Card>
        </li>
      ))}
    </ul>
  );
}

function CollectionProgress({ stats }: { stats: SchoolStats | undefined }) {
  const percent = stats?.collectionProgress ?? 0;
  return (
    <Card className="grid gap-2 p-4">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 className="text-sm font-semibold">Collection Progress</h2>
        <span className="text-sm font-semibold tabular-nums" data-testid="collection-percent">
          {stats ? `${percent}%` : '—'}
        </span>
      </div>
      <Progress value={percent} label="Collection progress" indicatorClassName={percent >= 100 ? 'bg-success' : undefined} />
      <p className="text-xs text-muted-foreground">
        {stats
          ? `${rupees(stats.currentMonthCollected)} collected of ${rupees(stats.expectedMonthlyIncome)} expected for ${stats.currentMonthLabel}`
          : 'Fees collected against the fees expected this month'}
      </p>
    </Card>
  );
}
