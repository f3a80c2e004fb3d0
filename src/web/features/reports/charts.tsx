import { useQuery } from '@tanstack/react-query';
import { Bar, BarChart, CartesianGrid, Cell, ComposedChart, Legend, Line, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { formatINR, type Paise } from '@/domain/money';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/web/components/ui/card';
import { Spinner } from '@/web/components/ui/spinner';
import { compactINR, formatMonthShortYear, paiseOf } from '@/web/lib/format';
import { chartsQuery } from './api';

const PALETTE = ['var(--primary)', 'var(--success)', 'var(--warning)', 'var(--destructive)', '#0ea5e9', '#8b5cf6', '#14b8a6', '#f97316', '#64748b', '#ec4899', '#84cc16', '#a855f7'];
const tooltipStyle = { background: 'var(--popover)', border: '1px solid var(--border)', borderRadius: 8, color: 'var(--popover-foreground)', fontSize: 12 };
const money = (v: unknown) => formatINR(Number(v) as Paise);
const axis = { fontSize: 11, fill: 'var(--muted-foreground)' };
/** Horizontal bar charts grow with their rows so every label shows. */
const barsHeight = (rows: number) => Math.max(160, 56 + rows * 24);

/**
 * The dashboard's charts (issue 5): collected against expected per month of the session,
 * expenses by category and outstanding by class. Values are paise; labels are rupees.
 */
export function DashboardCharts() {
  const charts = useQuery(chartsQuery());
  if (charts.isPending) {
    return (
      <div className="flex justify-center py-8">
        <Spinner className="size-6" />
      </div>
    );
  }
  if (charts.isError) return <p className="text-sm text-destructive">Unable to load the charts. Please refresh.</p>;
  const c = charts.data;
  const months = c.months.map((m) => ({ label: formatMonthShortYear(m.month), expected: paiseOf(m.expected) ?? 0, collected: paiseOf(m.collected) ?? 0 }));
  const expenses = c.expensesByCategory.map((e) => ({ category: e.category, amount: paiseOf(e.amount) ?? 0 }));
  const classes = c.outstandingByClass.map((x) => ({ full: x.className, outstanding: paiseOf(x.outstanding) ?? 0 }));

  return (
    <div className="grid gap-4 lg:grid-cols-2">
      <Card className="lg:col-span-2">
        <CardHeader className="pb-2">
          <CardTitle className="text-base">Collected vs expected, {c.session.name}</CardTitle>
          <CardDescription>Tuition and bus fees received for each month against what the month’s fees come to.</CardDescription>
        </CardHeader>
        <CardContent className="h-72" role="img" aria-label="Collected against expected per month of the session">
          <ResponsiveContainer width="100%" height="100%">
            <ComposedChart data={months} margin={{ left: 4, right: 8, top: 8 }}>
              <CartesianGrid strokeDasharray="3 3" stroke="var(--border)" vertical={false} />
              <XAxis dataKey="label" tick={axis} tickLine={false} axisLine={false} interval="preserveStartEnd" />
              <YAxis tickFormatter={compactINR} tick={axis} tickLine={false} axisLine={false} width={56} />
              <Tooltip formatter={money} contentStyle={tooltipStyle} cursor={{ fill: 'var(--muted)' }} />
              <Legend wrapperStyle={{ fontSize: 12 }} />
              <Bar dataKey="collected" name="Collected" fill="var(--primary)" radius={[4, 4, 0, 0]} maxBarSize={36} />
              <Line dataKey="expected" name="Expected" stroke="var(--warning)" strokeWidth={2} dot={false} type="monotone" />
            </ComposedChart>
          </ResponsiveContainer>
        </CardContent>
      </Card>
      <Card>
        <CardHeader className="pb-2">
          <CardTitle className="text-base">Expenses by category</CardTitle>
          <CardDescription>Current session.</CardDescription>
        </CardHeader>
        <CardContent role="img" aria-label="Expenses by category" style={{ height: barsHeight(expenses.length) }}>
          {expenses.length === 0 ? (
            <p className="py-16 text-center text-sm text-muted-foreground">No expenses in this session yet</p>
          ) : (
            <ResponsiveContainer width="100%" height="100%">
              <BarChart data={expenses} layout="vertical" margin={{ left: 4, right: 12 }}>
                <CartesianGrid strokeDasharray="3 3" stroke="var(--border)" horizontal={false} />
                <XAxis type="number" tickFormatter={compactINR} tick={axis} tickLine={false} axisLine={false} />
                <YAxis type="category" dataKey="category" tick={axis} tickLine={false} axisLine={false} width={118} interval={0} />
                <Tooltip formatter={money} contentStyle={tooltipStyle} cursor={{ fill: 'var(--muted)' }} />
                <Bar dataKey="amount" name="Spent" radius={[0, 4, 4, 0]} maxBarSize={22}>
                  {expenses.map((e, i) => (
                    <Cell key={e.category} fill={PALETTE[i % PALETTE.length]} />
                  ))}
                </Bar>
              </BarChart>
            </ResponsiveContainer>
          )}
        </CardContent>
      </Card>
      <Card>
        <CardHeader className="pb-2">
          <CardTitle className="text-base">Outstanding by class</CardTitle>
          <CardDescription>Till date, including balances carried from earlier sessions.</CardDescription>
        </CardHeader>
        <CardContent role="img" aria-label="Outstanding by class" style={{ height: barsHeight(classes.length) }}>
          {classes.length === 0 ? (
            <p className="py-16 text-center text-sm text-muted-foreground">No students yet</p>
          ) : (
            <ResponsiveContainer width="100%" height="100%">
              <BarChart data={classes} layout="vertical" margin={{ left: 4, right: 12 }}>
                <CartesianGrid strokeDasharray="3 3" stroke="var(--border)" horizontal={false} />
                <XAxis type="number" tickFormatter={compactINR} tick={axis} tickLine={false} axisLine={false} />
                <YAxis type="category" dataKey="full" tick={axis} tickLine={false} axisLine={false} width={64} interval={0} />
                <Tooltip formatter={money} contentStyle={tooltipStyle} cursor={{ fill: 'var(--muted)' }} />
                <Bar dataKey="outstanding" name="Outstanding" fill="var(--destructive)" radius={[0, 4, 4, 0]} maxBarSize={18} />
              </BarChart>
            </ResponsiveContainer>
          )}
        </CardContent>
      </Card>
    </div>
  );
}
