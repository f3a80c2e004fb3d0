import { useQuery } from '@tanstack/react-query';
import { FileSpreadsheetIcon, PrinterIcon } from 'lucide-react';
import { useState } from 'react';
import { LoadFailedAlert } from '@/web/components/load-failed-alert';
import { toast } from '@/web/components/toaster';
import { Button } from '@/web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/web/components/ui/card';
import { Spinner } from '@/web/components/ui/spinner';
import { downloadFile } from '@/web/lib/download';
import { refusalMessage } from '@/web/lib/form-errors';
import { cancellationsQuery, PATHS, search, type RangeFilters } from './api';
import { CancellationTable } from './cancellation-table';
import { DateRange, thisMonth } from './date-range';
import { CANCELLATION_TEXTS, REGISTER_TEXTS } from './texts';

export const CANCELLATION_PRINT_PATH = '/school/registers/cancellations/print';

/** The cancellation register (issue 15 item 6): what an auditor asks for first. */
export function CancellationRegister() {
  const [filters, setFilters] = useState<RangeFilters>(thisMonth);
  const rows = useQuery(cancellationsQuery(filters));
  const exportExcel = () =>
    void downloadFile(`${PATHS.cancellations}.xlsx${search({ ...filters })}`, 'cancellations.xlsx').catch((error: unknown) =>
      toast.error({ title: CANCELLATION_TEXTS.title, description: refusalMessage(error, REGISTER_TEXTS.exportFailed) }),
    );
  return (
    <Card>
      <CardHeader className="gap-3 sm:flex-row sm:items-start sm:justify-between">
        <div className="grid gap-1.5">
          <CardTitle level={2}>{CANCELLATION_TEXTS.title}</CardTitle>
          <CardDescription>{CANCELLATION_TEXTS.description}</CardDescription>
        </div>
        <div className="flex gap-2 self-start">
          <Button variant="outline" size="sm" onClick={() => window.open(`${CANCELLATION_PRINT_PATH}${search({ ...filters })}`, '_blank')}>
            <PrinterIcon />
            {CANCELLATION_TEXTS.print}
          </Button>
          <Button variant="outline" size="sm" onClick={exportExcel}>
            <FileSpreadsheetIcon />
            {CANCELLATION_TEXTS.exportExcel}
          </Button>
        </div>
      </CardHeader>
      <CardContent className="grid gap-4">
        <div className="grid gap-3 sm:grid-cols-2 lg:max-w-xl">
          <DateRange id="cancellations" from={filters.from} to={filters.to} onChange={(r) => setFilters((f) => ({ ...f, ...r }))} />
        </div>
        {rows.isPending ? (
          <div className="flex justify-center py-6">
            <Spinner />
          </div>
        ) : rows.isError ? (
          <LoadFailedAlert message={refusalMessage(rows.error, CANCELLATION_TEXTS.loadFailed)} onRetry={() => rows.refetch()} />
        ) : (
          <CancellationTable rows={rows.data} />
        )}
      </CardContent>
    </Card>
  );
}
