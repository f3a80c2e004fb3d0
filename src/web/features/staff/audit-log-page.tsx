import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { ArrowLeftIcon, FileSpreadsheetIcon, ScrollTextIcon } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { LoadFailedAlert } from '@/web/components/load-failed-alert';
import { toast } from '@/web/components/toaster';
import { Button } from '@/web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/web/components/ui/card';
import { Input, NativeSelect } from '@/web/components/ui/input';
import { Field } from '@/web/components/ui/label';
import { Spinner } from '@/web/components/ui/spinner';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/web/components/ui/table';
import { downloadFile } from '@/web/lib/download';
import { formatGeneratedAt } from '@/web/lib/format';
import { refusalMessage } from '@/web/lib/form-errors';
import { auditQuery, auditSearch, staffQuery, type AuditFilters } from './api';
import { AUDIT_TEXTS } from './texts';

/** Settings → Audit log (issue 15 item 3, ruling 3): Administrators filter by user, action and dates, and export. */
export function AuditLogPage() {
  const [filters, setFilters] = useState<AuditFilters>({});
  const staff = useQuery(staffQuery());
  const log = useQuery({ ...auditQuery(filters), placeholderData: keepPreviousData });
  const set = (key: keyof AuditFilters) => (value: string) => setFilters((f) => ({ ...f, [key]: value || undefined }));

  const exportExcel = () =>
    void downloadFile(`/api/audit.xlsx${auditSearch(filters)}`, 'audit-log.xlsx').catch((error: unknown) =>
      toast.error({ title: AUDIT_TEXTS.exportExcel, description: refusalMessage(error, AUDIT_TEXTS.exportFailed) }),
    );

  const actions = log.data?.actions.length ? log.data.actions : [...new Set(log.data?.entries.map((e) => e.action) ?? [])].sort();

  return (
    <div className="min-h-dvh bg-background">
      <header className="sticky top-0 z-10 border-b bg-card/90 backdrop-blur">
        <div className="mx-auto flex max-w-6xl items-center px-4 py-2.5">
          <Button variant="ghost" size="sm" asChild className="-ml-2">
            <Link to="/school/settings">
              <ArrowLeftIcon />
              Back to Settings
            </Link>
          </Button>
        </div>
      </header>
      <main className="mx-auto grid max-w-6xl gap-5 px-4 py-6">
        <Card>
          <CardHeader className="gap-3 sm:flex-row sm:items-start sm:justify-between">
            <div className="grid gap-1.5">
              <CardTitle className="flex items-center gap-2 text-2xl">
                <ScrollTextIcon className="size-6 text-primary" />
                {AUDIT_TEXTS.title}
              </CardTitle>
              <CardDescription>{AUDIT_TEXTS.description}</CardDescription>
            </div>
            <Button variant="outline" size="sm" className="self-start" onClick={exportExcel}>
              <FileSpreadsheetIcon />
              {AUDIT_TEXTS.exportExcel}
            </Button>
          </CardHeader>
          <CardContent className="grid gap-4">
            <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
              <Field label={AUDIT_TEXTS.user} htmlFor="audit-user">
                <NativeSelect id="audit-user" value={filters.userId ?? ''} onChange={(e) => set('userId')(e.target.value)}>
                  <option value="">{AUDIT_TEXTS.anyone}</option>
                  {staff.data?.staff.map((m) => (
                    <option key={m.id} value={m.id}>
                      {m.name}
                    </option>
                  ))}
                </NativeSelect>
              </Field>
              <Field label={AUDIT_TEXTS.action} htmlFor="audit-action">
                <NativeSelect id="audit-action" value={filters.action ?? ''} onChange={(e) => set('action')(e.target.value)}>
                  <option value="">{AUDIT_TEXTS.anyAction}</option>
                  {actions.map((a) => (
                    <option key={a} value={a}>
                      {a}
                    </option>
                  ))}
                </NativeSelect>
              </Field>
              <Field label={AUDIT_TEXTS.from} htmlFor="audit-from">
                <Input id="audit-from" type="date" value={filters.fromDate ?? ''} onChange={(e) => set('fromDate')(e.target.value)} />
              </Field>
              <Field label={AUDIT_TEXTS.to} htmlFor="audit-to">
                <Input id="audit-to" type="date" value={filters.toDate ?? ''} onChange={(e) => set('toDate')(e.target.value)} />
              </Field>
            </div>
            {log.isPending ? (
              <div className="flex justify-center py-8">
                <Spinner />
              </div>
            ) : log.isError ? (
              <LoadFailedAlert message={refusalMessage(log.error, AUDIT_TEXTS.loadFailed)} onRetry={() => log.refetch()} />
            ) : log.data.entries.length === 0 ? (
              <p className="py-6 text-center text-sm text-muted-foreground">{AUDIT_TEXTS.empty}</p>
            ) : (
              <div className="overflow-x-auto">
                <Table aria-label={AUDIT_TEXTS.title}>
                  <TableHeader>
                    <TableRow>
                      <TableHead className="whitespace-nowrap">{AUDIT_TEXTS.when}</TableHead>
                      <TableHead>{AUDIT_TEXTS.user}</TableHead>
                      <TableHead>{AUDIT_TEXTS.action}</TableHead>
                      <TableHead>{AUDIT_TEXTS.details}</TableHead>
                    </TableRow>
                  </TableHeader>
                  <TableBody>
                    {log.data.entries.map((e) => (
                      <TableRow key={e.id}>
                        <TableCell className="whitespace-nowrap text-xs">{formatGeneratedAt(e.at)}</TableCell>
                        <TableCell>{e.userName ?? '—'}</TableCell>
                        <TableCell className="font-mono text-xs">{e.action}</TableCell>
                        <TableCell className="min-w-48 text-sm text-muted-foreground">{e.summary ?? ''}</TableCell>
                      </TableRow>
                    ))}
                  </TableBody>
                </Table>
              </div>
            )}
          </CardContent>
        </Card>
      </main>
    </div>
  );
}
