import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { formatIndiaDateTime } from '@/domain/reports';
import { Button } from '@/web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/web/components/ui/card';
import { Input, NativeSelect } from '@/web/components/ui/input';
import { Label } from '@/web/components/ui/label';
import { Spinner } from '@/web/components/ui/spinner';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/web/components/ui/table';
import { adminSchoolsQuery, auditActionsQuery, auditLogQuery, type AuditFilters } from './api';
import { Pager } from './pager';
import { SECURITY_TEXTS as T } from './texts';

const EMPTY: AuditFilters = { schoolId: '', user: '', action: '', from: '', to: '', page: 1 };

/** What an entry carries beside who and what: its reason first, then the rest in short. */
export function auditDetails(after: unknown): string {
  if (!after || typeof after !== 'object') return '';
  const record = after as Record<string, unknown>;
  const parts = Object.entries(record)
    .filter(([, v]) => v !== null && v !== undefined && typeof v !== 'object')
    .sort(([a], [b]) => (a === 'reason' ? -1 : b === 'reason' ? 1 : 0))
    .slice(0, 3)
    .map(([k, v]) => `${k}: ${String(v)}`);
  const text = parts.join(' · ');
  return text.length > 120 ? `${text.slice(0, 119)}…` : text;
}

/** The audit log with filters by school, acting user, action and India dates. */
export function AuditCard() {
  const [draft, setDraft] = useState(EMPTY);
  const [filters, setFilters] = useState(EMPTY);
  const list = useQuery(auditLogQuery(filters));
  const actions = useQuery(auditActionsQuery());
  const schools = useQuery(adminSchoolsQuery());
  return (
    <Card>
      <CardHeader>
        <CardTitle level={2}>{T.audit}</CardTitle>
        <CardDescription>{T.auditDescription}</CardDescription>
      </CardHeader>
      <CardContent>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            setFilters({ ...draft, page: 1 });
          }}
          className="mb-4 grid gap-3 sm:grid-cols-2 lg:grid-cols-[1.5fr_1.5fr_1.2fr_1fr_1fr_auto] lg:items-end"
          aria-label={T.audit}
        >
          <div className="grid gap-1.5">
            <Label htmlFor="audit-school">{T.school}</Label>
            <NativeSelect id="audit-school" value={draft.schoolId} onChange={(e) => setDraft({ ...draft, schoolId: e.target.value })}>
              <option value="">{T.anySchool}</option>
              {(schools.data ?? []).map((s) => (
                <option key={s.id} value={s.id}>{s.name}</option>
              ))}
            </NativeSelect>
          </div>
          <div className="grid gap-1.5">
            <Label htmlFor="audit-user">{T.user}</Label>
            <Input id="audit-user" type="search" value={draft.user} onChange={(e) => setDraft({ ...draft, user: e.target.value })} />
          </div>
          <div className="grid gap-1.5">
            <Label htmlFor="audit-action">{T.action}</Label>
            <NativeSelect id="audit-action" value={draft.action} onChange={(e) => setDraft({ ...draft, action: e.target.value })}>
              <option value="">{T.anyAction}</option>
              {(actions.data ?? []).map((a) => (
                <option key={a} value={a}>{a}</option>
              ))}
            </NativeSelect>
          </div>
          <div className="grid gap-1.5">
            <Label htmlFor="audit-from">{T.from}</Label>
            <Input id="audit-from" type="date" value={draft.from} onChange={(e) => setDraft({ ...draft, from: e.target.value })} />
          </div>
          <div className="grid gap-1.5">
            <Label htmlFor="audit-to">{T.to}</Label>
            <Input id="audit-to" type="date" value={draft.to} onChange={(e) => setDraft({ ...draft, to: e.target.value })} />
          </div>
          <div className="flex gap-2">
            <Button type="submit">{T.apply}</Button>
            <Button
              type="button"
              variant="ghost"
              onClick={() => {
                setDraft(EMPTY);
                setFilters(EMPTY);
              }}
            >
              {T.clear}
            </Button>
          </div>
        </form>
        {list.isPending ? (
          <div className="flex justify-center py-8"><Spinner /></div>
        ) : list.isError ? (
          <p role="alert" className="py-4 text-sm text-destructive">{list.error.message}</p>
        ) : list.data.items.length === 0 ? (
          <p className="py-8 text-center text-sm text-muted-foreground">{T.noAudit}</p>
        ) : (
          <>
            <Table aria-label={T.audit}>
              <TableHeader>
                <TableRow>
                  <TableHead>{T.action}</TableHead>
                  <TableHead className="max-md:hidden">{T.school}</TableHead>
                  <TableHead className="max-md:hidden">{T.who}</TableHead>
                  <TableHead className="max-lg:hidden">{T.details}</TableHead>
                  <TableHead className="max-sm:hidden">{T.when}</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {list.data.items.map((a) => (
                  <TableRow key={a.id}>
                    <TableCell>
                      <div className="font-mono text-xs font-medium">{a.action}</div>
                      <div className="[overflow-wrap:anywhere] text-xs text-muted-foreground">
                        {a.entity}
                        {a.entityId ? ` ${a.entityId}` : ''}
                      </div>
                      <div className="text-xs text-muted-foreground md:hidden">
                        {a.schoolName ?? T.platform} · {a.userEmail ?? '—'}
                      </div>
                      <div className="text-xs text-muted-foreground lg:hidden">{auditDetails(a.after)}</div>
                      <div className="text-xs text-muted-foreground sm:hidden">{formatIndiaDateTime(a.at)}</div>
                    </TableCell>
                    <TableCell className="max-md:hidden">{a.schoolName ?? T.platform}</TableCell>
                    <TableCell className="[overflow-wrap:anywhere] max-md:hidden">
                      {a.userEmail ?? '—'}
                      {a.ip ? <div className="font-mono text-xs text-muted-foreground">{a.ip}</div> : null}
                    </TableCell>
                    <TableCell className="max-w-72 text-xs max-lg:hidden">{auditDetails(a.after)}</TableCell>
                    <TableCell className="whitespace-nowrap max-sm:hidden">{formatIndiaDateTime(a.at)}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
            <Pager page={list.data.page} pageSize={list.data.pageSize} total={list.data.total} onPage={(page) => setFilters({ ...filters, page })} />
          </>
        )}
      </CardContent>
    </Card>
  );
}
