import { useQuery } from '@tanstack/react-query';
import { FileSpreadsheetIcon } from 'lucide-react';
import { useState } from 'react';
import { LoadFailedAlert } from '@/web/components/load-failed-alert';
import { toast } from '@/web/components/toaster';
import { Badge } from '@/web/components/ui/badge';
import { Button } from '@/web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/web/components/ui/card';
import { Spinner } from '@/web/components/ui/spinner';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/web/components/ui/table';
import { downloadFile } from '@/web/lib/download';
import { formatDate, rupees } from '@/web/lib/format';
import { refusalMessage } from '@/web/lib/form-errors';
import { cn } from '@/web/lib/utils';
import { closingsQuery, PATHS, search, type RangeFilters } from './api';
import { DateRange, thisMonth } from './date-range';
import { Difference, differs } from './difference';
import { CLOSINGS_TEXTS, REGISTER_TEXTS } from './texts';

/** Closings per day and per collector (issue 15 item 4), differences highlighted. */
export function ClosingsReport() {
  const [filters, setFilters] = useState<RangeFilters>(thisMonth);
  const report = useQuery(closingsQuery(filters));
  const exportExcel = () =>
    void downloadFile(`${PATHS.closings}.xlsx${search({ ...filters })}`, 'closings.xlsx').catch((error: unknown) =>
      toast.error({ title: CLOSINGS_TEXTS.reportTitle, description: refusalMessage(error, REGISTER_TEXTS.exportFailed) }),
    );
  return (
    <Card>
      <CardHeader className="gap-3 sm:flex-row sm:items-start sm:justify-between">
        <div className="grid gap-1.5">
          <CardTitle level={2}>{CLOSINGS_TEXTS.reportTitle}</CardTitle>
          <CardDescription>{CLOSINGS_TEXTS.reportDescription}</CardDescription>
        </div>
        <Button variant="outline" size="sm" className="self-start" onClick={exportExcel}>
          <FileSpreadsheetIcon />
          Excel
        </Button>
      </CardHeader>
      <CardContent className="grid gap-4">
        <div className="grid gap-3 sm:grid-cols-2 lg:max-w-xl">
          <DateRange id="closings" from={filters.from} to={filters.to} onChange={(r) => setFilters((f) => ({ ...f, ...r }))} />
        </div>
        {report.isPending ? (
          <div className="flex justify-center py-6">
            <Spinner />
          </div>
        ) : report.isError ? (
          <LoadFailedAlert message={refusalMessage(report.error, CLOSINGS_TEXTS.loadFailed)} onRetry={() => report.refetch()} />
        ) : report.data.closings.length === 0 ? (
          <p className="py-4 text-center text-sm text-muted-foreground">{CLOSINGS_TEXTS.none}</p>
        ) : (
          <>
            <div className="grid gap-4 2xl:grid-cols-2">
              <SumsTable
                label={CLOSINGS_TEXTS.byUser}
                first={CLOSINGS_TEXTS.collector}
                rows={report.data.byUser.map((u) => ({ key: u.userId, name: u.userName, ...u }))}
              />
              <SumsTable label={CLOSINGS_TEXTS.byDayTotals} first={CLOSINGS_TEXTS.date} rows={report.data.byDay.map((d) => ({ key: d.date, name: formatDate(d.date), ...d }))} />
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
                  {report.data.closings.map((c) => (
                    <TableRow key={c.id} className={cn(differs(c.difference) && 'bg-destructive/5')}>
                      <TableCell className="whitespace-nowrap">{formatDate(c.date)}</TableCell>
                      <TableCell>{c.userName}</TableCell>
                      <TableCell className="text-right tabular-nums">{rupees(c.expectedCash)}</TableCell>
                      <TableCell className="text-right tabular-nums">{rupees(c.countedCash)}</TableCell>
                      <TableCell className="whitespace-nowrap text-right">
                        <Difference amount={c.difference} />
                      </TableCell>
                      <TableCell className="min-w-40 text-xs text-muted-foreground">{c.note}</TableCell>
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
                  ))}
                </TableBody>
              </Table>
            </div>
          </>
        )}
      </CardContent>
    </Card>
  );
}

function SumsTable({ label, first, rows }: { label: string; first: string; rows: Array<{ key: string; name: string; closings: number; expected: string; counted: string; difference: string }> }) {
  return (
    <div className="grid content-start gap-2">
      <h3 className="text-sm font-semibold">{label}</h3>
      <div className="overflow-x-auto">
        <Table aria-label={label}>
          <TableHeader>
            <TableRow>
              <TableHead>{first}</TableHead>
              <TableHead className="text-right">{CLOSINGS_TEXTS.closings}</TableHead>
              <TableHead className="text-right">{CLOSINGS_TEXTS.expected}</TableHead>
              <TableHead className="text-right">{CLOSINGS_TEXTS.counted}</TableHead>
              <TableHead className="text-right">{CLOSINGS_TEXTS.difference}</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {rows.map((r) => (
              <TableRow key={r.key} className={cn(differs(r.difference) && 'bg-destructive/5')}>
                <TableCell className="whitespace-nowrap font-medium">{r.name}</TableCell>
                <TableCell className="text-right tabular-nums">{r.closings}</TableCell>
                <TableCell className="text-right tabular-nums">{rupees(r.expected)}</TableCell>
                <TableCell className="text-right tabular-nums">{rupees(r.counted)}</TableCell>
                <TableCell className="whitespace-nowrap text-right">
                  <Difference amount={r.difference} />
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </div>
    </div>
  );
}
