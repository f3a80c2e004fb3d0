import { useQuery } from '@tanstack/react-query';
import { ArrowLeftIcon, DownloadIcon, FileTextIcon, ReceiptIcon, SparklesIcon, WalletIcon } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { ThemeToggle } from '@/web/components/theme';
import { toast } from '@/web/components/toaster';
import { Alert, AlertDescription } from '@/web/components/ui/alert';
import { Badge } from '@/web/components/ui/badge';
import { Button } from '@/web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/web/components/ui/card';
import { ConfirmDialog } from '@/web/components/ui/confirm-dialog';
import { Spinner } from '@/web/components/ui/spinner';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/web/components/ui/table';
import { downloadFile } from '@/web/lib/download';
import { formatDate, rupees } from '@/web/lib/format';
import { refusalMessage } from '@/web/lib/form-errors';
import { SUBSCRIPTION_PATH, trialStatusQuery } from '@/web/lib/plans-api';
import { billingQuery, useCancelPlan, type Billing } from './api';
import { BILLING_TEXTS as T } from './texts';

function statusBadge(b: Billing): { text: string; tone: 'success' | 'warning' | 'destructive' | 'secondary' } {
  if (b.isExpired) return { text: b.validUntil && b.status !== 'trial' ? T.expiredOn(formatDate(b.validUntil)) : T.status.expired!, tone: 'destructive' };
  if (b.status === 'cancelled') return { text: b.validUntil ? T.accessTill(formatDate(b.validUntil)) : T.status.cancelled!, tone: 'warning' };
  if (b.status === 'trial') return { text: T.status.trial!, tone: 'warning' };
  return { text: T.status.active!, tone: 'success' };
}

/** Settings → Billing (issue 12 item 3): plan and validity, queued plan, payments, tax invoices, cancel. */
export function BillingPage() {
  const billing = useQuery(billingQuery());
  const trial = useQuery({ ...trialStatusQuery(), enabled: billing.data?.status === 'trial' });
  const cancel = useCancelPlan();
  const [confirming, setConfirming] = useState(false);

  const onCancel = async () => {
    setConfirming(false);
    try {
      const answer = await cancel.mutateAsync();
      toast.success({ title: T.cancelled, description: answer.message });
    } catch (error) {
      toast.error({ title: T.cancelFailed, description: refusalMessage(error, 'Failed to cancel subscription.') });
    }
  };

  const download = async (url: string, number: string) => {
    try {
      await downloadFile(url, `invoice-${number}.pdf`);
    } catch (error) {
      toast.error({ title: T.downloadFailed, description: refusalMessage(error, T.downloadFailed) });
    }
  };

  const b = billing.data;
  const badge = b ? statusBadge(b) : null;
  const days = b?.status === 'trial' ? (trial.data?.daysRemaining ?? b.daysRemaining) : b?.daysRemaining;

  return (
    <div className="min-h-dvh bg-background">
      <header className="sticky top-0 z-10 border-b bg-card/90 backdrop-blur">
        <div className="mx-auto flex max-w-5xl items-center justify-between gap-2 px-4 py-2.5">
          <Button variant="ghost" size="sm" asChild className="-ml-2">
            <Link to="/school/settings">
              <ArrowLeftIcon />
              {T.back}
            </Link>
          </Button>
          <ThemeToggle />
        </div>
      </header>
      <main className="mx-auto grid max-w-5xl gap-5 px-4 py-6">
        <div>
          <h1 className="text-2xl font-bold tracking-tight">{T.title}</h1>
          <p className="text-sm text-muted-foreground">{T.intro}</p>
        </div>
        {billing.isPending ? (
          <div className="flex justify-center py-16"><Spinner label="Loading billing" /></div>
        ) : billing.isError || !b ? (
          <p role="alert" className="py-16 text-center text-sm text-destructive">{T.loadFailed}: {billing.error?.message}</p>
        ) : (
          <>
            <Card>
              <CardHeader className="gap-3 sm:flex-row sm:items-start sm:justify-between">
                <div>
                  <CardTitle className="flex items-center gap-2">
                    <WalletIcon className="size-5 text-primary" />
                    {T.currentPlan}
                  </CardTitle>
                  <CardDescription>{b.taxDetails.state ? T.taxLine(b.taxDetails.state, b.taxDetails.gstin) : null}</CardDescription>
                </div>
                <div className="flex flex-wrap gap-2">
                  <Button asChild size="sm">
                    <Link to={SUBSCRIPTION_PATH}>
                      <SparklesIcon />
                      {b.isExpired ? T.renew : T.upgrade}
                    </Link>
                  </Button>
                  {b.status === 'active' && !b.isExpired ? (
                    <Button variant="outline" size="sm" onClick={() => setConfirming(true)} disabled={cancel.isPending}>
                      {T.cancel}
                    </Button>
                  ) : null}
                </div>
              </CardHeader>
              <CardContent className="grid gap-4">
                {b.isExpired ? (
                  <Alert variant="destructive">
                    <AlertDescription>{T.readOnly}</AlertDescription>
                  </Alert>
                ) : null}
                <dl className="grid gap-4 text-sm sm:grid-cols-4">
                  <div>
                    <dt className="text-muted-foreground">{T.currentPlan}</dt>
                    <dd className="text-lg font-semibold" data-testid="billing-plan">{b.planName}</dd>
                  </div>
                  <div>
                    <dt className="text-muted-foreground">Status</dt>
                    <dd><Badge variant={badge!.tone} data-testid="billing-status">{badge!.text}</Badge></dd>
                  </div>
                  <div>
                    <dt className="text-muted-foreground">{b.status === 'trial' ? T.trialEnds : T.validUntil}</dt>
                    <dd className="font-medium" data-testid="billing-valid-until">{b.validUntil ? formatDate(b.validUntil) : b.status === 'trial' ? T.trialAwaiting : '—'}</dd>
                  </div>
                  <div>
                    <dt className="text-muted-foreground">Days left</dt>
                    <dd className="font-medium" data-testid="billing-days-left">{days === null || days === undefined ? '—' : T.daysLeft(days)}</dd>
                  </div>
                </dl>
                {b.queuedPlan ? (
                  <div className="rounded-md border border-dashed p-3 text-sm" data-testid="billing-queued">
                    <span className="font-medium">{T.queuedTitle}: </span>
                    {T.queued(b.queuedPlan.planName, formatDate(b.queuedPlan.startDate))}
                    <span className="text-muted-foreground"> · {T.queuedHint}</span>
                  </div>
                ) : null}
                {!b.taxDetails.state ? <p className="text-sm text-muted-foreground">{T.taxMissing}</p> : null}
              </CardContent>
            </Card>

            <Card>
              <CardHeader>
                <CardTitle className="flex items-center gap-2">
                  <FileTextIcon className="size-5 text-primary" />
                  {T.invoices}
                </CardTitle>
              </CardHeader>
              <CardContent>
                {b.invoices.length === 0 ? (
                  <p className="py-4 text-sm text-muted-foreground">{T.noInvoices}</p>
                ) : (
                  <Table aria-label={T.invoices}>
                    <TableHeader>
                      <TableRow>
                        <TableHead>{T.cols.number}</TableHead>
                        <TableHead className="max-sm:hidden">{T.cols.date}</TableHead>
                        <TableHead className="text-right">{T.cols.total}</TableHead>
                        <TableHead className="w-0" />
                      </TableRow>
                    </TableHeader>
                    <TableBody>
                      {b.invoices.map((i) => (
                        <TableRow key={i.id}>
                          <TableCell>
                            <div className="whitespace-nowrap font-medium">{i.number}</div>
                            <div className="text-xs text-muted-foreground sm:hidden">{formatDate(i.date)}</div>
                          </TableCell>
                          <TableCell className="whitespace-nowrap max-sm:hidden">{formatDate(i.date)}</TableCell>
                          <TableCell className="whitespace-nowrap text-right">{rupees(i.total)}</TableCell>
                          <TableCell>
                            <Button variant="outline" size="sm" onClick={() => void download(i.pdfUrl, i.number)} aria-label={`Download invoice ${i.number}`}>
                              <DownloadIcon />
                              {T.download}
                            </Button>
                          </TableCell>
                        </TableRow>
                      ))}
                    </TableBody>
                  </Table>
                )}
              </CardContent>
            </Card>

            <Card>
              <CardHeader>
                <CardTitle className="flex items-center gap-2">
                  <ReceiptIcon className="size-5 text-primary" />
                  {T.payments}
                </CardTitle>
              </CardHeader>
              <CardContent>
                {b.payments.length === 0 ? (
                  <p className="py-4 text-sm text-muted-foreground">{T.noPayments}</p>
                ) : (
                  <Table aria-label={T.payments}>
                    <TableHeader>
                      <TableRow>
                        <TableHead>{T.cols.date}</TableHead>
                        <TableHead>{T.cols.plan}</TableHead>
                        <TableHead className="max-sm:hidden">{T.cols.mode}</TableHead>
                        <TableHead className="text-right">{T.cols.amount}</TableHead>
                      </TableRow>
                    </TableHeader>
                    <TableBody>
                      {b.payments.map((p) => (
                        <TableRow key={p.id}>
                          <TableCell className="whitespace-nowrap">{formatDate(p.date)}</TableCell>
                          <TableCell>
                            <div className="capitalize">{p.plan} · {T.cycle[p.billingCycle]}</div>
                            {p.status === 'refused' ? <div className="text-xs text-destructive">{T.refused}</div> : null}
                            <div className="text-xs text-muted-foreground sm:hidden">{T.mode[p.mode]}</div>
                          </TableCell>
                          <TableCell className="max-sm:hidden">
                            {T.mode[p.mode]}
                            {p.reference ? <div className="break-all text-xs text-muted-foreground">{p.reference}</div> : null}
                          </TableCell>
                          <TableCell className="whitespace-nowrap text-right">{rupees(p.amount)}</TableCell>
                        </TableRow>
                      ))}
                    </TableBody>
                  </Table>
                )}
              </CardContent>
            </Card>
          </>
        )}
      </main>
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title={T.cancelTitle}
        description={T.cancelBody(b?.validUntil ? formatDate(b.validUntil) : '')}
        confirmLabel={T.cancelConfirm}
        destructive
        onConfirm={() => void onCancel()}
      />
    </div>
  );
}
