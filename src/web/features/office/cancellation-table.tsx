import { addPaise, formatINR, ZERO } from '@/domain/money';
import { Table, TableBody, TableCell, TableFooter, TableHead, TableHeader, TableRow } from '@/web/components/ui/table';
import { formatDate, formatGeneratedAt, paiseOf, rupees } from '@/web/lib/format';
import type { Cancellation } from './api';
import { CANCELLATION_TEXTS } from './texts';

/** The register's rows, on screen and on paper alike. */
export function CancellationTable({ rows }: { rows: Cancellation[] }) {
  if (rows.length === 0) return <p className="py-4 text-center text-sm text-muted-foreground">{CANCELLATION_TEXTS.empty}</p>;
  const total = rows.reduce((sum, r) => addPaise(sum, paiseOf(r.amount) ?? ZERO), ZERO);
  return (
    <div className="overflow-x-auto print:overflow-visible">
      <Table aria-label={CANCELLATION_TEXTS.title} className="print:text-xs">
        <TableHeader>
          <TableRow>
            <TableHead>{CANCELLATION_TEXTS.number}</TableHead>
            <TableHead className="whitespace-nowrap">{CANCELLATION_TEXTS.date}</TableHead>
            <TableHead>{CANCELLATION_TEXTS.student}</TableHead>
            <TableHead className="text-right">{CANCELLATION_TEXTS.amount}</TableHead>
            <TableHead>{CANCELLATION_TEXTS.collectedBy}</TableHead>
            <TableHead>{CANCELLATION_TEXTS.cancelledBy}</TableHead>
            <TableHead className="whitespace-nowrap">{CANCELLATION_TEXTS.cancelledOn}</TableHead>
            <TableHead>{CANCELLATION_TEXTS.reason}</TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {rows.map((r) => (
            <TableRow key={r.receiptId}>
              <TableCell className="whitespace-nowrap font-mono text-xs">{r.receiptNumber}</TableCell>
              <TableCell className="whitespace-nowrap">{formatDate(r.receiptDate)}</TableCell>
              <TableCell>
                {r.studentName} <span className="text-xs text-muted-foreground">({r.className})</span>
              </TableCell>
              <TableCell className="text-right tabular-nums">{rupees(r.amount)}</TableCell>
              <TableCell>{r.collectedBy}</TableCell>
              <TableCell>{r.cancelledBy}</TableCell>
              <TableCell className="whitespace-nowrap text-xs">{formatGeneratedAt(r.cancelledAt)}</TableCell>
              <TableCell className="min-w-48 text-sm">
                {r.bounced ? <span className="font-medium text-destructive">{CANCELLATION_TEXTS.bounced}: </span> : null}
                {r.reason}
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
        <TableFooter>
          <TableRow>
            <TableCell colSpan={3} className="font-semibold">
              {CANCELLATION_TEXTS.total} ({rows.length})
            </TableCell>
            <TableCell className="text-right font-semibold tabular-nums">{formatINR(total)}</TableCell>
            <TableCell colSpan={4} />
          </TableRow>
        </TableFooter>
      </Table>
    </div>
  );
}
