import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { formatIndiaDateTime } from '@/domain/reports';
import { Badge } from '@/web/components/ui/badge';
import { Button } from '@/web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/web/components/ui/card';
import { Input, NativeSelect } from '@/web/components/ui/input';
import { Label } from '@/web/components/ui/label';
import { Spinner } from '@/web/components/ui/spinner';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/web/components/ui/table';
import { signInsQuery, type SignInFilters } from './api';
import { Pager } from './pager';
import { describeBrowser } from './system-format';
import { SECURITY_TEXTS as T } from './texts';

const EMPTY: SignInFilters = { email: '', result: '', from: '', to: '', page: 1 };

/** Sign-in history with IP and browser, filtered by address, result and India dates. */
export function SignInsCard() {
  const [draft, setDraft] = useState(EMPTY);
  const [filters, setFilters] = useState(EMPTY);
  const list = useQuery(signInsQuery(filters));
  const apply = (e: React.FormEvent) => {
    e.preventDefault();
    setFilters({ ...draft, page: 1 });
  };
  return (
    <Card>
      <CardHeader>
        <CardTitle level={2}>{T.signIns}</CardTitle>
        <CardDescription>
          {T.signInsDescription}
          {list.data ? <span className="ml-1 font-medium text-foreground">{T.failedLastDay(list.data.failedLastDay)}</span> : null}
        </CardDescription>
      </CardHeader>
      <CardContent>
        <form onSubmit={apply} className="mb-4 grid gap-3 sm:grid-cols-2 lg:grid-cols-[2fr_1fr_1fr_1fr_auto] lg:items-end" aria-label={T.signIns}>
          <div className="grid gap-1.5">
            <Label htmlFor="signin-email">{T.emailFilter}</Label>
            <Input id="signin-email" type="search" value={draft.email} onChange={(e) => setDraft({ ...draft, email: e.target.value })} />
          </div>
          <div className="grid gap-1.5">
            <Label htmlFor="signin-result">{T.result}</Label>
            <NativeSelect id="signin-result" value={draft.result} onChange={(e) => setDraft({ ...draft, result: e.target.value as SignInFilters['result'] })}>
              <option value="">{T.all}</option>
              <option value="failure">{T.onlyFailed}</option>
              <option value="success">{T.onlySuccess}</option>
            </NativeSelect>
          </div>
          <div className="grid gap-1.5">
            <Label htmlFor="signin-from">{T.from}</Label>
            <Input id="signin-from" type="date" value={draft.from} onChange={(e) => setDraft({ ...draft, from: e.target.value })} />
          </div>
          <div className="grid gap-1.5">
            <Label htmlFor="signin-to">{T.to}</Label>
            <Input id="signin-to" type="date" value={draft.to} onChange={(e) => setDraft({ ...draft, to: e.target.value })} />
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
          <p className="py-8 text-center text-sm text-muted-foreground">{T.noSignIns}</p>
        ) : (
          <>
            <Table aria-label={T.signIns}>
              <TableHeader>
                <TableRow>
                  <TableHead>{T.who}</TableHead>
                  <TableHead>{T.result}</TableHead>
                  <TableHead className="max-md:hidden">{T.ip}</TableHead>
                  <TableHead className="max-md:hidden">{T.browser}</TableHead>
                  <TableHead className="max-sm:hidden">{T.when}</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {list.data.items.map((s) => (
                  <TableRow key={s.id}>
                    <TableCell>
                      <div className="[overflow-wrap:anywhere] font-medium">{s.email}</div>
                      {s.schoolName ? <div className="text-xs text-muted-foreground">{s.schoolName}</div> : null}
                      <div className="mt-1 text-xs text-muted-foreground md:hidden">
                        {s.ip ?? '—'} · {describeBrowser(s.userAgent)}
                      </div>
                      <div className="text-xs text-muted-foreground sm:hidden">{formatIndiaDateTime(s.at)}</div>
                    </TableCell>
                    <TableCell>
                      {s.success ? (
                        <Badge variant="success">{T.success}</Badge>
                      ) : (
                        <Badge variant="destructive">{(s.reason && T.reasons[s.reason]) ?? T.failure}</Badge>
                      )}
                    </TableCell>
                    <TableCell className="font-mono text-xs max-md:hidden">{s.ip ?? '—'}</TableCell>
                    <TableCell className="max-md:hidden" title={s.userAgent ?? undefined}>
                      {describeBrowser(s.userAgent)}
                    </TableCell>
                    <TableCell className="whitespace-nowrap max-sm:hidden">{formatIndiaDateTime(s.at)}</TableCell>
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
