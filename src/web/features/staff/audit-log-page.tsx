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
import { AUDIT_PATH, auditQuery, auditSearch, staffQuery, type AuditFilters, type AuditRow } from './api';
import { AUDIT_TEXTS } from './texts';

/** Settings → Audit log (issue 15 item 3, ruling 3): Administrators filter by user, action and dates, and export. */
export function AuditLogPage() {
  const [filters, setFilters] = useState<AuditFilters>({});
  const staff = useQuery(staffQuery());
  const log = useQuery({ ...auditQuery(filters), placeholderData: keepPreviousData });
  // a new filter starts again at its first page
  const set = (key: keyof AuditFilters) => (value: string) => setFilters((f) => ({ ...f, [key]: value || undefined, page: undefined }));
  const page = log.data?.page ?? 1;
  const pages = log.data ? Math.max(1, Math.ceil(log.data.total / log.data.pageSize)) : 1;

  const exportExcel = () =>
    void downloadFile(`${AUDIT_PATH}.xlsx${auditSearch({ ...filters, page: undefined })}`, 'audit-log.xlsx').catch((error: unknown) =>
      toast.error({ title: AUDIT_TEXTS.exportExcel, description: refusalMessage(error, AUDIT_TEXTS.exportFailed) }),
    );

  const actions = log.data?.actions ?? [];

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
                  {staff.data?.members.map((m) => (
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
                <Input id="audit-from" type="date" value={filters.from ?? ''} onChange={(e) => set('from')(e.target.value)} />
              </Field>
              <Field label={AUDIT_TEXTS.to} htmlFor="audit-to">
                <Input id="audit-to" type="date" value={filters.to ?? ''} onChange={(e) => set('to')(e.target.value)} />
              </Field>
            </div>
            {log.isPending ? (
              <div className="flex justify-center py-8">
                <Spinner />
              </div>
            ) : log.isError ? (
              <LoadFailedAlert message={refusalMessage(log.error, AUDIT_TEXTS.loadFailed)} onRetry={() => log.refetch()} />
            ) : log.data.rows.length === 0 ? (
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
                    {log.data.rows.map((e) => (
                      <TableRow key={e.id}>
                        <TableCell className="whitespace-nowrap text-xs">{formatGeneratedAt(e.at)}</TableCell>
                        <TableCell>{e.userName ?? '—'}</TableCell>
                        <TableCell className="font-mono text-xs">{e.action}</TableCell>
                        <TableCell className="min-w-48 max-w-md text-xs text-muted-foreground">{auditDetails(e)}</TableCell>
                      </TableRow>
                    ))}
                  </TableBody>
                </Table>
              </div>
            )}
            {pages > 1 ? (
              <div className="flex items-center justify-end gap-2 text-sm">
                <Button variant="outline" size="sm" disabled={page <= 1} onClick={() => setFilters((f) => ({ ...f, page: String(page - 1) }))}>
                  {AUDIT_TEXTS.previous}
                </Button>
                <span className="tabular-nums">{AUDIT_TEXTS.pageOf(page, pages)}</span>
                <Button variant="outline" size="sm" disabled={page >= pages} onClick={() => setFilters((f) => ({ ...f, page: String(page + 1) }))}>
                  {AUDIT_TEXTS.next}
                </Button>
              </div>
            ) : null}
          </CardContent>
        </Card>
      </main>
    </div>
  );
}

/** The changed fields of a row, short: what an auditor scans for ("amount: 1500.00 → 1600.00"). */
export function auditDetails(row: Pick<AuditRow, 'entity' | 'entityId' | 'before' | 'after' | 'ip'>): string {
  const before = (row.before && typeof row.before === 'object' ? row.before : {}) as Record<string, unknown>;
  const after = (row.after && typeof row.after === 'object' ? row.after : {}) as Record<string, unknown>;
  const show = (v: unknown) => (v === null || v === undefined ? '—' : typeof v === 'object' ? JSON.stringify(v) : String(v));
  const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].filter((k) => show(before[k]) !== show(after[k]));
  const changes = keys.slice(0, 6).map((k) => (k in before && k in after ? `${k}: ${show(before[k])} → ${show(after[k])}` : `${k}: ${show(after[k] ?? before[k])}`));
  return [row.entity, ...changes, row.ip ? `from ${row.ip}` : ''].filter(Boolean).join(' · ');
}
