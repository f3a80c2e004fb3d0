import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Bar, BarChart, CartesianGrid, Cell, ComposedChart, Legend, Line, Pie, PieChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { formatINR, type Paise } from '@/domain/money';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/web/components/ui/card';
import { Spinner } from '@/web/components/ui/spinner';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/web/components/ui/table';
import { compactINR, formatDayShortMonth, formatMonthShortYear, paiseOf, rupees } from '@/web/lib/format';
import { analyticsQuery } from './api';
import { ANALYTICS_TEXTS as T } from './texts';

const PALETTE = ['var(--primary)', 'var(--success)', 'var(--warning)', '#8b5cf6', '#0ea5e9'];
const tooltipStyle = { background: 'var(--popover)', border: '1px solid var(--border)', borderRadius: 8, color: 'var(--popover-foreground)', fontSize: 12 };
const axis = { fontSize: 11, fill: 'var(--muted-foreground)' };
const money = (v: unknown) => formatINR(Number(v) as Paise);

function Figure({ label, value, hint }: { label: string; value: ReactNode; hint: string }) {
  return (
    <Card>
      <CardContent className="p-4 sm:p-5">
        <p className="text-xs font-medium text-muted-foreground sm:text-sm">{label}</p>
        <p className="mt-1 text-xl font-bold tabular-nums sm:text-2xl">{value}</p>
        <p className="mt-1 text-xs text-muted-foreground">{hint}</p>
      </CardContent>
    </Card>
  );
}

/** The Analytics tab (ruling 22): the subscription business at a glance, money in en-IN rupees. */
export function AnalyticsTab() {
  const analytics = useQuery(analyticsQuery());
  if (analytics.isPending) return <div className="flex justify-center py-16"><Spinner label={T.loading} /></div>;
  if (analytics.isError) return <p role="alert" className="py-16 text-center text-sm text-destructive">{T.failed}</p>;
  const a = analytics.data;
  const revenue = a.revenueByMonth.map((m) => ({ label: formatMonthShortYear(m.month), revenue: paiseOf(m.revenue) ?? 0, payments: m.payments }));
  const weeks = a.signupsByWeek.map((w) => ({ label: formatDayShortMonth(w.weekStart), signups: w.signups, converted: w.converted, conversion: w.signups > 0 ? w.conversionPercent : null }));
  const churn = a.churnByMonth.map((m) => ({ label: formatMonthShortYear(m.month), churn: m.churnPercent, churned: m.churned, payingAtStart: m.payingAtStart }));
  const mix = a.planMix.filter((p) => p.schools > 0);

  return (
    <div className="grid gap-5">
      <div className="grid grid-cols-2 gap-3 lg:grid-cols-5">
        <Figure label={T.mrr} value={rupees(a.mrr)} hint={T.mrrHint} />
        <Figure label={T.arr} value={rupees(a.arr)} hint={T.arrHint} />
        <Figure label={T.paying} value={a.payingSchools} hint={`${T.mixTitle}: ${a.planMix.map((p) => `${p.name} ${p.schools}`).join(', ')}`} />
        <Figure label={T.revenue12} value={rupees(a.revenueLast12Months)} hint={T.revenue12Hint} />
        <Figure label={T.conversion} value={T.percent(a.trialToPaidPercent)} hint={T.conversionHint} />
      </div>

      <Card>
        <CardHeader className="pb-2">
          <CardTitle level={2} className="text-base">{T.revenueTitle}</CardTitle>
          <CardDescription>{T.revenueDescription}</CardDescription>
        </CardHeader>
        <CardContent className="h-72" role="img" aria-label={T.revenueTitle}>
          <ResponsiveContainer width="100%" height="100%">
            <BarChart data={revenue} margin={{ left: 4, right: 8, top: 8 }}>
              <CartesianGrid strokeDasharray="3 3" stroke="var(--border)" vertical={false} />
              <XAxis dataKey="label" tick={axis} tickLine={false} axisLine={false} interval="preserveStartEnd" />
              <YAxis tickFormatter={compactINR} tick={axis} tickLine={false} axisLine={false} width={56} />
              <Tooltip formatter={money} contentStyle={tooltipStyle} cursor={{ fill: 'var(--muted)' }} />
              <Bar dataKey="revenue" name={T.revenueTitle} fill="var(--primary)" radius={[4, 4, 0, 0]} maxBarSize={36} />
            </BarChart>
          </ResponsiveContainer>
        </CardContent>
      </Card>

      <div className="grid gap-5 lg:grid-cols-2">
        <Card>
          <CardHeader className="pb-2">
            <CardTitle level={2} className="text-base">{T.signupsTitle}</CardTitle>
            <CardDescription>{T.signupsDescription}</CardDescription>
          </CardHeader>
          <CardContent className="h-72" role="img" aria-label={T.signupsTitle}>
            <ResponsiveContainer width="100%" height="100%">
              <ComposedChart data={weeks} margin={{ left: 0, right: 0, top: 8 }}>
                <CartesianGrid strokeDasharray="3 3" stroke="var(--border)" vertical={false} />
                <XAxis dataKey="label" tick={axis} tickLine={false} axisLine={false} interval="preserveStartEnd" />
                <YAxis yAxisId="n" allowDecimals={false} tick={axis} tickLine={false} axisLine={false} width={32} />
                <YAxis yAxisId="pct" orientation="right" domain={[0, 100]} tickFormatter={(v: number) => `${v}%`} tick={axis} tickLine={false} axisLine={false} width={40} />
                <Tooltip contentStyle={tooltipStyle} cursor={{ fill: 'var(--muted)' }} />
                <Legend wrapperStyle={{ fontSize: 12 }} />
                <Bar yAxisId="n" dataKey="signups" name={T.signups} fill="var(--primary)" radius={[4, 4, 0, 0]} maxBarSize={22} />
                <Bar yAxisId="n" dataKey="converted" name={T.converted} fill="var(--success)" radius={[4, 4, 0, 0]} maxBarSize={22} />
                <Line yAxisId="pct" dataKey="conversion" name={T.conversionPercent} stroke="var(--warning)" strokeWidth={2} dot={{ r: 3 }} connectNulls />
              </ComposedChart>
            </ResponsiveContainer>
          </CardContent>
        </Card>

        <Card>
          <CardHeader className="pb-2">
            <CardTitle level={2} className="text-base">{T.churnTitle}</CardTitle>
            <CardDescription>{T.churnDescription}</CardDescription>
          </CardHeader>
          <CardContent className="h-72" role="img" aria-label={T.churnTitle}>
            <ResponsiveContainer width="100%" height="100%">
              <ComposedChart data={churn} margin={{ left: 0, right: 0, top: 8 }}>
                <CartesianGrid strokeDasharray="3 3" stroke="var(--border)" vertical={false} />
                <XAxis dataKey="label" tick={axis} tickLine={false} axisLine={false} interval="preserveStartEnd" />
                <YAxis yAxisId="n" allowDecimals={false} tick={axis} tickLine={false} axisLine={false} width={32} />
                <YAxis yAxisId="pct" orientation="right" domain={[0, 'auto']} tickFormatter={(v: number) => `${v}%`} tick={axis} tickLine={false} axisLine={false} width={40} />
                <Tooltip contentStyle={tooltipStyle} cursor={{ fill: 'var(--muted)' }} />
                <Legend wrapperStyle={{ fontSize: 12 }} />
                <Bar yAxisId="n" dataKey="churned" name={T.churned} fill="var(--destructive)" radius={[4, 4, 0, 0]} maxBarSize={22} />
                <Line yAxisId="pct" dataKey="churn" name={T.churnPercent} stroke="var(--warning)" strokeWidth={2} dot={false} />
              </ComposedChart>
            </ResponsiveContainer>
          </CardContent>
        </Card>
      </div>

      <Card>
        <CardHeader className="pb-2">
          <CardTitle level={2} className="text-base">{T.mixTitle}</CardTitle>
          <CardDescription>{T.mixDescription}</CardDescription>
        </CardHeader>
        <CardContent className="grid gap-4 md:grid-cols-2 md:items-center">
          {mix.length === 0 ? (
            <p className="py-8 text-center text-sm text-muted-foreground md:col-span-2">{T.noPaying}</p>
          ) : (
            <div className="h-56" role="img" aria-label={T.mixTitle}>
              <ResponsiveContainer width="100%" height="100%">
                <PieChart>
                  <Pie data={mix} dataKey="schools" nameKey="name" innerRadius="55%" outerRadius="85%" paddingAngle={2}>
                    {mix.map((p, i) => (
                      <Cell key={p.plan} fill={PALETTE[i % PALETTE.length]} />
                    ))}
                  </Pie>
                  <Tooltip contentStyle={tooltipStyle} />
                  <Legend wrapperStyle={{ fontSize: 12 }} />
                </PieChart>
              </ResponsiveContainer>
            </div>
          )}
          <Table>
            <TableHeader>
              <TableRow>
                <TableHead>{T.plan}</TableHead>
                <TableHead className="text-right">{T.schools}</TableHead>
                <TableHead className="text-right">{T.mrr}</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {a.planMix.map((p) => (
                <TableRow key={p.plan}>
                  <TableCell className="font-medium">{p.name}</TableCell>
                  <TableCell className="text-right tabular-nums">{p.schools}</TableCell>
                  <TableCell className="text-right tabular-nums">{rupees(p.mrr)}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </CardContent>
      </Card>
    </div>
  );
}
