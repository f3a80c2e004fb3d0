import { useQuery } from '@tanstack/react-query';
import { ArrowLeftIcon, FileTextIcon, SettingsIcon } from 'lucide-react';
import { useState, type ReactNode } from 'react';
import { Link, useParams } from 'react-router';
import { formatIndiaDateTime } from '@/domain/reports';
import { toast } from '@/web/components/toaster';
import { Badge } from '@/web/components/ui/badge';
import { Button } from '@/web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/web/components/ui/card';
import { Spinner } from '@/web/components/ui/spinner';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/web/components/ui/table';
import { downloadFile } from '@/web/lib/download';
import { formatDate, rupees } from '@/web/lib/format';
import { ApiError } from '@/web/lib/request';
import { schoolBillingQuery, schoolDetailQuery, type SchoolDetail } from './api';
import { ManageSchoolById } from './manage-school-dialog';
import { PortalShell } from './portal-shell';
import { planLabel } from './school-stats';
import { auditDetails } from './security-audit';
import { SchoolStatusBadge } from './status-badge';
import { DETAIL_TEXTS as T } from './texts';

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs text-muted-foreground">{label}</dt>
      <dd className="mt-0.5 break-words text-sm font-medium">{children}</dd>
    </div>
  );
}

function Usage({ label, value }: { label: string; value: ReactNode }) {
  return (
    <div className="rounded-lg border p-3">
      <p className="text-lg font-bold tabular-nums [overflow-wrap:anywhere] sm:text-xl">{value}</p>
      <p className="text-xs text-muted-foreground">{label}</p>
    </div>
  );
}

/** One school as the master administrator sees it: plan, usage, users, payments, invoices, audit trail. */
export function SchoolDetailPage() {
  const { id = '' } = useParams();
  const detail = useQuery(schoolDetailQuery(id));
  const [managing, setManaging] = useState(false);
  return (
    <PortalShell>
      <Button variant="ghost" size="sm" asChild className="mb-3 -ml-2">
        <Link to="/admin/dashboard?tab=schools">
          <ArrowLeftIcon />
          {T.back}
        </Link>
      </Button>
      {detail.isPending ? (
        <div className="flex justify-center py-16"><Spinner label={T.loading} /></div>
      ) : detail.isError ? (
        <p role="alert" className="py-16 text-center text-sm text-destructive">
          {detail.error instanceof ApiError && (detail.error.status === 404 || detail.error.status === 400) ? T.notFound : T.failed}
        </p>
      ) : (
        <SchoolView detail={detail.data} onManage={() => setManaging(true)} />
      )}
      {managing ? <ManageSchoolById schoolId={id} onClose={() => setManaging(false)} /> : null}
    </PortalShell>
  );
}

function SchoolView({ detail, onManage }: { detail: SchoolDetail; onManage: () => void }) {
  const { school, plan, usage } = detail;
  return (
    <div className="grid gap-5">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <h2 className="text-2xl font-bold tracking-tight">{school.name}</h2>
          <p className="[overflow-wrap:anywhere] text-sm text-muted-foreground">
            {school.email} · {school.phone || '—'}
          </p>
        </div>
        <Button onClick={onManage}>
          <SettingsIcon />
          {T.manage}
        </Button>
      </div>

      <div className="grid gap-5 lg:grid-cols-2">
        <Card>
          <CardHeader>
            <CardTitle>{T.plan}</CardTitle>
            <CardDescription>{plan ? `${T.studentLimit(plan.studentLimit)} · ${T.prices(rupees(plan.monthlyPrice), rupees(plan.yearlyPrice))}` : null}</CardDescription>
          </CardHeader>
          <CardContent>
            <dl className="grid grid-cols-2 gap-4">
              <Fact label={T.plan}>{plan?.name ?? planLabel(school.subscriptionPlan)}</Fact>
              <Fact label={T.status}>
                <SchoolStatusBadge school={school} />
              </Fact>
              {school.subscriptionStatus === 'trial' ? (
                <Fact label={T.trialEnds}>{formatDate(school.trialEndsAt)}</Fact>
              ) : (
                <Fact label={T.validUntil}>{formatDate(school.queuedPlan?.endDate ?? school.planEndDate)}</Fact>
              )}
              <Fact label={T.started}>{formatDate(school.planStartDate)}</Fact>
              <Fact label={T.registered}>{formatDate(school.createdAt)}</Fact>
              {school.queuedPlan ? <Fact label="">{T.queued(planLabel(school.queuedPlan.plan), formatDate(school.queuedPlan.startDate))}</Fact> : null}
            </dl>
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle>{T.usage}</CardTitle>
          </CardHeader>
          <CardContent className="grid grid-cols-2 gap-3">
            <Usage label={T.students} value={plan?.studentLimit ? `${usage.students} / ${plan.studentLimit}` : usage.students} />
            <Usage label={T.staff} value={usage.staff} />
            <Usage label={T.receiptsThisMonth} value={usage.receiptsThisMonth} />
            <Usage label={T.collectedThisMonth} value={rupees(usage.collectedThisMonth, { decimals: false })} />
          </CardContent>
        </Card>
      </div>

      <Card>
        <CardHeader>
          <CardTitle>{T.people}</CardTitle>
        </CardHeader>
        <CardContent>
          <ul className="divide-y">
            {detail.users.map((u) => (
              <li key={u.id} className="flex flex-wrap items-center justify-between gap-2 py-2 text-sm">
                <span className="min-w-0">
                  <span className="block font-medium">{u.username}</span>
                  <span className="block [overflow-wrap:anywhere] text-xs text-muted-foreground">{u.email}</span>
                </span>
                <span className="text-xs text-muted-foreground">
                  {u.emailConfirmed ? null : <Badge variant="warning" className="mr-2">{T.unconfirmed}</Badge>}
                  {T.lastLogin}: {u.lastLoginAt ? formatIndiaDateTime(u.lastLoginAt) : T.never}
                </span>
              </li>
            ))}
          </ul>
        </CardContent>
      </Card>

      <BillingCards schoolId={school.id} />

      <Card>
        <CardHeader>
          <CardTitle>{T.audit}</CardTitle>
        </CardHeader>
        <CardContent>
          {detail.audit.length === 0 ? (
            <p className="py-4 text-sm text-muted-foreground">{T.noAudit}</p>
          ) : (
            <ul className="divide-y" aria-label={T.audit}>
              {detail.audit.map((a) => (
                <li key={a.id} className="grid gap-0.5 py-2 text-sm sm:grid-cols-[11rem_1fr] sm:gap-3">
                  <span className="text-xs text-muted-foreground sm:text-sm">{formatIndiaDateTime(a.at)}</span>
                  <span className="min-w-0">
                    <span className="font-mono text-xs font-medium">{a.action}</span>
                    <span className="text-muted-foreground"> · {a.userEmail ?? '—'}</span>
                    {auditDetails(a.after) ? <span className="block break-words text-xs text-muted-foreground">{auditDetails(a.after)}</span> : null}
                  </span>
                </li>
              ))}
            </ul>
          )}
        </CardContent>
      </Card>
    </div>
  );
}

/** Payments and GST invoices from the billing endpoint (the subscription work of issue 12). */
function BillingCards({ schoolId }: { schoolId: string }) {
  const billing = useQuery(schoolBillingQuery(schoolId));
  if (billing.isPending) return <div className="flex justify-center py-6"><Spinner /></div>;
  if (billing.isError) return <p role="alert" className="text-sm text-destructive">{T.billingFailed}</p>;
  const { payments, invoices } = billing.data;
  return (
    <div className="grid gap-5 lg:grid-cols-2">
      <Card>
        <CardHeader>
          <CardTitle>{T.payments}</CardTitle>
        </CardHeader>
        <CardContent>
          {payments.length === 0 ? (
            <p className="py-4 text-sm text-muted-foreground">{T.noPayments}</p>
          ) : (
            <Table aria-label={T.payments}>
              <TableHeader>
                <TableRow>
                  <TableHead>{T.date}</TableHead>
                  <TableHead>{T.plan}</TableHead>
                  <TableHead className="max-sm:hidden">{T.mode}</TableHead>
                  <TableHead className="text-right">{T.amount}</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {payments.map((p) => (
                  <TableRow key={p.id}>
                    <TableCell className="whitespace-nowrap">{formatDate(p.date)}</TableCell>
                    <TableCell>
                      {planLabel(p.plan)} · {p.billingCycle}
                      <div className="text-xs text-muted-foreground">{p.status}</div>
                    </TableCell>
                    <TableCell className="max-sm:hidden">
                      {p.mode}
                      {p.reference ? <div className="[overflow-wrap:anywhere] text-xs text-muted-foreground">{p.reference}</div> : null}
                    </TableCell>
                    <TableCell className="text-right tabular-nums">{rupees(p.amount)}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          )}
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>{T.invoices}</CardTitle>
        </CardHeader>
        <CardContent>
          {invoices.length === 0 ? (
            <p className="py-4 text-sm text-muted-foreground">{T.noInvoices}</p>
          ) : (
            <Table aria-label={T.invoices}>
              <TableHeader>
                <TableRow>
                  <TableHead>{T.number}</TableHead>
                  <TableHead>{T.date}</TableHead>
                  <TableHead className="text-right">{T.total}</TableHead>
                  <TableHead className="text-right"><span className="sr-only">{T.pdf}</span></TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {invoices.map((i) => (
                  <TableRow key={i.id}>
                    <TableCell className="font-mono text-xs">{i.number}</TableCell>
                    <TableCell className="whitespace-nowrap">{formatDate(i.date)}</TableCell>
                    <TableCell className="text-right tabular-nums">{rupees(i.total)}</TableCell>
                    <TableCell className="text-right">
                      <Button
                        variant="ghost"
                        size="sm"
                        onClick={() =>
                          downloadFile(i.pdfUrl, `${i.number.replace(/\//g, '-')}.pdf`).catch((error: unknown) =>
                            toast.error({ title: T.pdf, description: error instanceof Error ? error.message : String(error) }),
                          )
                        }
                      >
                        <FileTextIcon />
                        {T.pdf}
                      </Button>
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          )}
        </CardContent>
      </Card>
    </div>
  );
}
