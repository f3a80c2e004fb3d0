import { useQuery } from '@tanstack/react-query';
import { FileSpreadsheetIcon } from 'lucide-react';
import { useState } from 'react';
import { addPaise, formatINR, ZERO, type Paise } from '@/domain/money';
import { LoadFailedAlert } from '@/web/components/load-failed-alert';
import { toast } from '@/web/components/toaster';
import { Badge } from '@/web/components/ui/badge';
import { Button } from '@/web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/web/components/ui/card';
import { Spinner } from '@/web/components/ui/spinner';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/web/components/ui/table';
import { downloadFile } from '@/web/lib/download';
import { formatDate, paiseOf, rupees } from '@/web/lib/format';
import { refusalMessage } from '@/web/lib/form-errors';
import { cn } from '@/web/lib/utils';
import { closingsQuery, search, type Closing, type RangeFilters } from './api';
import { DateRange } from './date-range';
import { Difference, differs } from './difference';
import { CLOSINGS_TEXTS, REGISTER_TEXTS } from './texts';

interface CollectorTotal {
  userId: string;
  userName: string;
  days: number;
  expected: Paise;
  counted: Paise;
  difference: Paise;
}

/** One line per collector over the dates: the "per user" view of the closings report. */
export function totalsByCollector(closings: Closing[]): CollectorTotal[] {
  const byUser = new Map<string, CollectorTotal>();
  for (const c of closings) {
    const t = byUser.get(c.userId) ?? { userId: c.userId, userName: c.userName, days: 0, expected: ZERO, counted: ZERO, difference: ZERO };
    t.days += 1;
    t.expected = addPaise(t.expected, paiseOf(c.expectedCash) ?? ZERO);
    t.counted = addPaise(t.counted, paiseOf(c.countedCash) ?? ZERO);
    t.difference = addPaise(t.difference, paiseOf(c.difference) ?? ZERO);
    byUser.set(c.userId, t);
  }
  return [...byUser.values()].sort((a, b) => a.userName.localeCompare(b.userName));
}

/** Closings per day and per collector (issue 15 item 4), differences highlighted. */
export function ClosingsReport() {
  const [filters, setFilters] = useState<RangeFilters>({});
  const closings = useQuery(closingsQuery(filters));
  const exportExcel = () =>
    void downloadFile(`/api/closings.xlsx${search(filters)}`, 'closings.xlsx').catch((error: unknown) =>
      toast.error({ title: CLOSINGS_TEXTS.reportTitle, description: refusalMessage(error, REGISTER_TEXTS.exportFailed) }),
    );
  return (
    <Card>
      <CardHeader className="gap-3 sm:flex-row sm:items-start sm:justify-between">
        <div className="grid gap-1.5">
          <CardTitle>{CLOSINGS_TEXTS.reportTitle}</CardTitle>
          <CardDescription>{CLOSINGS_TEXTS.reportDescription}</CardDescription>
        </div>
        <Button variant="outline" size="sm" className="self-start" onClick={exportExcel}>
          <FileSpreadsheetIcon />
          Excel
        </Button>
      </CardHeader>
      <CardContent className="grid gap-4">
        <div className="grid gap-3 sm:grid-cols-2 lg:max-w-xl">
          <DateRange id="closings" fromDate={filters.fromDate} toDate={filters.toDate} onChange={(r) => setFilters((f) => ({ ...f, ...r }))} />
        </div>
        {closings.isPending ? (
          <div className="flex justify-center py-6">
            <Spinner />
          </div>
        ) : closings.isError ? (
          <LoadFailedAlert message={refusalMessage(closings.error, CLOSINGS_TEXTS.loadFailed)} onRetry={() => closings.refetch()} />
        ) : (
          <>
            <h3 className="text-sm font-semibold">{CLOSINGS_TEXTS.byUser}</h3>
            <div className="overflow-x-auto">
              <Table aria-label={CLOSINGS_TEXTS.byUser}>
                <TableHeader>
                  <TableRow>
                    <TableHead>{CLOSINGS_TEXTS.collector}</TableHead>
                    <TableHead className="text-right">Days</TableHead>
                    <TableHead className="text-right">{CLOSINGS_TEXTS.expected}</TableHead>
                    <TableHead className="text-right">{CLOSINGS_TEXTS.counted}</TableHead>
                    <TableHead className="text-right">{CLOSINGS_TEXTS.difference}</TableHead>
                  </TableRow>
                </TableHeader>
                <TableBody>
                  {totalsByCollector(closings.data).map((t) => (
                    <TableRow key={t.userId} className={cn(t.difference !== 0 && 'bg-destructive/5')}>
                      <TableCell className="font-medium">{t.userName}</TableCell>
                      <TableCell className="text-right tabular-nums">{t.days}</TableCell>
                      <TableCell className="text-right tabular-nums">{formatINR(t.expected)}</TableCell>
                      <TableCell className="text-right tabular-nums">{formatINR(t.counted)}</TableCell>
                      <TableCell className="text-right whitespace-nowrap">
                        <Difference amount={t.difference} />
                      </TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            </div>
            <h3 className="text-sm font-semibold">{CLOSINGS_TEXTS.byDay}</h3>
            <div className="overflow-x-auto">
              <Table aria-label={CLOSINGS_TEXTS.byDay}>
                <TableHeader>
                  <TableRow>
                    <TableHead>{CLOSINGS_TEXTS.date}</TableHead>
                    <TableHead>{CLOSINGS_TEXTS.collector}</TableHead>
                    <TableHead className="text-right">{CLOSINGS_TEXTS.expected}</TableHead>
                    <TableHead className="text-right">{CLOSINGS_TEXTS.counted}</TableHead>
                    <TableHead className="text-right">{CLOSINGS_TEXTS.difference}</TableHead>
                    <TableHead>{CLOSINGS_TEXTS.note}</TableHead>
                    <TableHead>{CLOSINGS_TEXTS.status}</TableHead>
                  </TableRow>
                </TableHeader>
                <TableBody>
                  {closings.data.length === 0 ? (
                    <TableRow>
                      <TableCell colSpan={7} className="text-center text-muted-foreground">
                        {CLOSINGS_TEXTS.nonePending}
                      </TableCell>
                    </TableRow>
                  ) : (
                    closings.data.map((c) => (
                      <TableRow key={c.id} className={cn(differs(c.difference) && 'bg-destructive/5')}>
                        <TableCell className="whitespace-nowrap">{formatDate(c.date)}</TableCell>
                        <TableCell>{c.userName}</TableCell>
                        <TableCell className="text-right tabular-nums">{rupees(c.expectedCash)}</TableCell>
                        <TableCell className="text-right tabular-nums">{rupees(c.countedCash)}</TableCell>
                        <TableCell className="text-right whitespace-nowrap">
                          <Difference amount={c.difference} />
                        </TableCell>
                        <TableCell className="min-w-40 text-xs text-muted-foreground">{c.note ?? ''}</TableCell>
                        <TableCell>
                          {c.acknowledgedAt ? (
                            <Badge variant="success">
                              {CLOSINGS_TEXTS.acknowledged}
                              {c.acknowledgedByName ? ` · ${c.acknowledgedByName}` : ''}
                            </Badge>
                          ) : (
                            <Badge variant="warning">{CLOSINGS_TEXTS.pending}</Badge>
                          )}
                        </TableCell>
                      </TableRow>
                    ))
                  )}
                </TableBody>
              </Table>
            </div>
          </>
        )}
      </CardContent>
    </Card>
  );
}
