import { useQuery } from '@tanstack/react-query';
import { PrinterIcon, XIcon } from 'lucide-react';
import { useSearchParams } from 'react-router';
import { useSchoolSession } from '@/web/app/session';
import { LoadFailedAlert } from '@/web/components/load-failed-alert';
import { Button } from '@/web/components/ui/button';
import { FullPageSpinner } from '@/web/components/ui/spinner';
import { formatDate, formatGeneratedAt } from '@/web/lib/format';
import { refusalMessage } from '@/web/lib/form-errors';
import { cancellationsQuery } from './api';
import { CancellationTable } from './cancellation-table';
import { CANCELLATION_TEXTS } from './texts';

/** The cancellation register on paper: the school's name, the dates, the rows and when it was made. */
export function CancellationPrintPage() {
  const [params] = useSearchParams();
  const fromDate = params.get('from') ?? undefined;
  const toDate = params.get('to') ?? undefined;
  const { school } = useSchoolSession();
  const rows = useQuery(cancellationsQuery({ from: fromDate, to: toDate }));
  if (rows.isPending) return <FullPageSpinner />;
  return (
    <main className="mx-auto max-w-5xl p-4 print:max-w-none print:p-0">
      <div className="mb-4 flex flex-wrap gap-2 print:hidden">
        <Button onClick={() => window.print()}>
          <PrinterIcon />
          {CANCELLATION_TEXTS.print}
        </Button>
        <Button variant="ghost" className="ml-auto" onClick={() => window.close()}>
          <XIcon />
          Close
        </Button>
      </div>
      <header className="mb-4 text-center">
        <h1 className="text-xl font-bold">{school.name}</h1>
        <h2 className="text-lg font-semibold">{CANCELLATION_TEXTS.title}</h2>
        <p className="text-sm text-muted-foreground">
          {fromDate || toDate ? `${fromDate ? formatDate(fromDate) : '…'} – ${toDate ? formatDate(toDate) : '…'}` : 'All dates'} · Generated {formatGeneratedAt(new Date().toISOString())}
        </p>
      </header>
      {rows.isError ? <LoadFailedAlert message={refusalMessage(rows.error, CANCELLATION_TEXTS.loadFailed)} onRetry={() => rows.refetch()} /> : <CancellationTable rows={rows.data} />}
    </main>
  );
}
