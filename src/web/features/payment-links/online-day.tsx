import { useQuery } from '@tanstack/react-query';
import { DownloadIcon } from 'lucide-react';
import { useState } from 'react';
import { indiaDate } from '@/domain/sessions';
import { LoadFailedAlert } from '@/web/components/load-failed-alert';
import { toast } from '@/web/components/toaster';
import { Badge } from '@/web/components/ui/badge';
import { Button } from '@/web/components/ui/button';
import { Input } from '@/web/components/ui/input';
import { Field } from '@/web/components/ui/label';
import { Spinner } from '@/web/components/ui/spinner';
import { Table, TableBody, TableCell, TableFooter, TableHead, TableHeader, TableRow } from '@/web/components/ui/table';
import { downloadFile } from '@/web/lib/download';
import { formatGeneratedAt, rupees } from '@/web/lib/format';
import { refusalMessage } from '@/web/lib/form-errors';
import { onlineDayQuery, onlineExportPath } from './api';
import { ONLINE_STATUS_LABELS, ONLINE_TEXTS } from './texts';

const zero = (amount: string) => amount === '0.00' || amount === '0';

/** Online Payments of one day (issue 13 item 7): gateway ids, amounts, receipts, credits and refunds. */
export function OnlineDay() {
  const [date, setDate] = useState(() => indiaDate(new Date()));
  const valid = /^\d{4}-\d{2}-\d{2}$/.test(date);
  const day = useQuery({ ...onlineDayQuery(date), enabled: valid });
  const [downloading, setDownloading] = useState(false);
  const download = async () => {
    setDownloading(true);
    try {
      await downloadFile(onlineExportPath(date), `online-payments-${date}.xlsx`);
    } catch (error) {
      toast.error({ title: ONLINE_TEXTS.exportFailed, description: refusalMessage(error, ONLINE_TEXTS.exportFailed) });
    } finally {
      setDownloading(false);
    }
  };
  return (
    <div className="grid gap-3">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <Field label={ONLINE_TEXTS.day} htmlFor="onlineDay">
          <Input id="onlineDay" type="date" value={date} onChange={(e) => setDate(e.target.value)} className="w-44" />
        </Field>
        <Button variant="outline" onClick={() => void download()} disabled={!valid || downloading}>
          <DownloadIcon />
          {ONLINE_TEXTS.export}
        </Button>
      </div>
      {!valid ? null : day.isPending ? (
        <div className="flex justify-center py-6">
          <Spinner />
        </div>
      ) : day.isError ? (
        <LoadFailedAlert message={refusalMessage(day.error, ONLINE_TEXTS.loadFailed)} onRetry={() => day.refetch()} />
      ) : day.data.payments.length === 0 ? (
        <p className="rounded-lg border border-dashed px-4 py-6 text-center text-sm text-muted-foreground">{ONLINE_TEXTS.empty}</p>
      ) : (
        <div className="overflow-x-auto">
          <Table aria-label={ONLINE_TEXTS.tabTitle}>
            <TableHeader>
              <TableRow>
                <TableHead>{ONLINE_TEXTS.colTime}</TableHead>
                <TableHead>{ONLINE_TEXTS.colStudent}</TableHead>
                <TableHead>{ONLINE_TEXTS.colGateway}</TableHead>
                <TableHead>{ONLINE_TEXTS.colOrder}</TableHead>
                <TableHead className="text-right">{ONLINE_TEXTS.colAmount}</TableHead>
                <TableHead>{ONLINE_TEXTS.colReceipt}</TableHead>
                <TableHead>{ONLINE_TEXTS.colStatus}</TableHead>
                <TableHead className="text-right">{ONLINE_TEXTS.colCredit}</TableHead>
                <TableHead className="text-right">{ONLINE_TEXTS.colRefund}</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {day.data.payments.map((p) => (
                <TableRow key={p.id} data-testid="online-row">
                  <TableCell className="whitespace-nowrap text-xs">{formatGeneratedAt(new Date(p.at))}</TableCell>
                  <TableCell>
                    <span className="whitespace-nowrap font-medium">{p.studentName}</span>
                    <span className="block text-xs text-muted-foreground">{p.className}</span>
                  </TableCell>
                  <TableCell className="capitalize">{p.provider}</TableCell>
                  <TableCell className="font-mono text-xs">
                    {p.orderId ?? '—'}
                    {p.paymentId ? <span className="block text-muted-foreground">{p.paymentId}</span> : null}
                  </TableCell>
                  <TableCell className="text-right tabular-nums">{rupees(p.amount)}</TableCell>
                  <TableCell className="whitespace-nowrap font-mono text-xs">{p.receiptNumber ?? '—'}</TableCell>
                  <TableCell>
                    <Badge variant={p.status === 'receipted' ? 'success' : p.status === 'failed' ? 'destructive' : 'warning'}>{ONLINE_STATUS_LABELS[p.status]}</Badge>
                  </TableCell>
                  <TableCell className="text-right tabular-nums">{zero(p.credit) ? '—' : rupees(p.credit)}</TableCell>
                  <TableCell className="text-right tabular-nums">{zero(p.refund) ? '—' : rupees(p.refund)}</TableCell>
                </TableRow>
              ))}
            </TableBody>
            <TableFooter>
              <TableRow>
                <TableCell colSpan={4} className="font-semibold">
                  {ONLINE_TEXTS.totals}: {ONLINE_TEXTS.count(day.data.totals.count)}
                </TableCell>
                <TableCell className="text-right font-semibold tabular-nums" data-testid="online-total">
                  {rupees(day.data.totals.amount)}
                </TableCell>
                <TableCell colSpan={2} />
                <TableCell className="text-right tabular-nums">{rupees(day.data.totals.credit)}</TableCell>
                <TableCell className="text-right tabular-nums">{rupees(day.data.totals.refund)}</TableCell>
              </TableRow>
            </TableFooter>
          </Table>
        </div>
      )}
    </div>
  );
}
