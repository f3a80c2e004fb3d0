import { useQuery } from '@tanstack/react-query';
import { ArrowRightLeftIcon, CalendarPlusIcon, PencilIcon, SearchIcon, SettingsIcon, XCircleIcon } from 'lucide-react';
import { useState } from 'react';
import { Badge } from '@/web/components/ui/badge';
import { Button } from '@/web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/web/components/ui/card';
import { Input } from '@/web/components/ui/input';
import { Spinner } from '@/web/components/ui/spinner';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/web/components/ui/table';
import { formatDate } from '@/web/lib/format';
import type { School } from '@/web/lib/me-api';
import { EditSubscriptionDialog } from './edit-subscription-dialog';
import { ManageSchoolDialog, type ManageSection } from './manage-school-dialog';
import { filterSchools, planLabel } from './school-stats';
import { SchoolStatusBadge } from './status-badge';
import { daysLeft, subscriptionCounts, validUntil } from './subscription-rules';
import { subscriptionsQuery } from './subscriptions-api';
import { SUB_TEXTS as T } from './subscription-texts';

type Open = { school: School; dialog: 'edit' } | { school: School; dialog: 'manage'; section: ManageSection } | null;

function DaysLeft({ school }: { school: School }) {
  const { days, expired, tone } = daysLeft(school);
  if (expired) return <Badge variant="destructive">{T.expired}</Badge>;
  if (days === null) return <span className="text-muted-foreground">—</span>;
  return <Badge variant={tone}>{T.days(days)}</Badge>;
}

function RowActions({ school, open }: { school: School; open: (o: Open) => void }) {
  const item = (label: string, icon: React.ReactNode, action: () => void) => (
    <Button variant="ghost" size="icon" className="size-8" aria-label={`${label} ${school.name}`} title={label} onClick={action}>
      {icon}
    </Button>
  );
  return (
    <div className="flex flex-wrap items-center gap-0.5">
      {item(T.actions.edit, <PencilIcon />, () => open({ school, dialog: 'edit' }))}
      {item(T.actions.extend, <CalendarPlusIcon />, () => open({ school, dialog: 'manage', section: 'extend' }))}
      {item(T.actions.changePlan, <ArrowRightLeftIcon />, () => open({ school, dialog: 'manage', section: 'change' }))}
      {school.subscriptionStatus === 'cancelled' ? null : item(T.actions.cancel, <XCircleIcon className="text-destructive" />, () => open({ school, dialog: 'manage', section: 'cancel' }))}
      <Button variant="outline" size="sm" className="ml-1" onClick={() => open({ school, dialog: 'manage', section: 'plan' })} aria-label={`${T.actions.manage} ${school.name}`}>
        <SettingsIcon />
        {T.actions.manage}
      </Button>
    </div>
  );
}

/** Subscription Management (platform §6): search, four counts, valid-until and days left, the row actions and dialogs. */
export function SubscriptionsTab() {
  const list = useQuery(subscriptionsQuery());
  const [query, setQuery] = useState('');
  const [open, setOpen] = useState<Open>(null);
  if (list.isPending) return <div className="flex justify-center py-16"><Spinner label="Loading subscriptions" /></div>;
  if (list.isError) return <p role="alert" className="py-16 text-center text-sm text-destructive">Unable to load subscriptions: {list.error.message}</p>;
  const schools = list.data;
  const shown = filterSchools(schools, query);
  const counts = subscriptionCounts(schools);
  // the dialog works on the latest row, so a refetch while it is open shows fresh values
  const current = open ? (schools.find((s) => s.id === open.school.id) ?? open.school) : null;

  return (
    <div className="grid gap-4">
      <div className="grid grid-cols-2 gap-3 sm:grid-cols-4">
        {(['active', 'trial', 'expired', 'cancelled'] as const).map((key) => (
          <Card key={key}>
            <CardContent className="p-4">
              <p className="text-sm text-muted-foreground">{T.counts[key]}</p>
              <p className="text-2xl font-bold" data-testid={`count-${key}`}>{counts[key]}</p>
            </CardContent>
          </Card>
        ))}
      </div>
      <Card>
        <CardHeader className="gap-3 sm:flex-row sm:items-end sm:justify-between">
          <div>
            <CardTitle level={2}>{T.title}</CardTitle>
            <CardDescription>{shown.length === schools.length ? `${schools.length} schools` : `${shown.length} of ${schools.length} shown`}</CardDescription>
          </div>
          <div className="relative sm:w-72">
            <SearchIcon className="pointer-events-none absolute left-3 top-1/2 size-4 -translate-y-1/2 text-muted-foreground" />
            <Input type="search" aria-label="Search subscriptions" placeholder={T.search} value={query} onChange={(e) => setQuery(e.target.value)} className="pl-9" />
          </div>
        </CardHeader>
        <CardContent>
          {shown.length === 0 ? (
            <p className="py-8 text-center text-sm text-muted-foreground">{T.none}</p>
          ) : (
            <Table aria-label={T.title}>
              <TableHeader>
                <TableRow>
                  <TableHead>{T.cols.school}</TableHead>
                  <TableHead className="max-md:hidden">{T.cols.plan}</TableHead>
                  <TableHead className="max-md:hidden">{T.cols.status}</TableHead>
                  <TableHead className="max-md:hidden">{T.cols.validUntil}</TableHead>
                  <TableHead className="max-md:hidden">{T.cols.daysLeft}</TableHead>
                  <TableHead className="max-md:hidden">{T.cols.actions}</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {shown.map((s) => {
                  const until = validUntil(s);
                  return (
                    <TableRow key={s.id} data-testid={`subscription-${s.id}`}>
                      <TableCell className="md:min-w-48">
                        <div className="font-medium">{s.name}</div>
                        <div className="break-all text-xs text-muted-foreground">{s.email}</div>
                        {s.queuedPlan ? <div className="text-xs text-muted-foreground">then {planLabel(s.queuedPlan.plan)} from {formatDate(s.queuedPlan.startDate)}</div> : null}
                        {s.deactivated ? <Badge variant="destructive" className="mt-1">Deactivated</Badge> : null}
                        <div className="mt-1.5 flex flex-wrap items-center gap-x-2 gap-y-1 text-xs text-muted-foreground md:hidden">
                          <span>{planLabel(s.subscriptionPlan)}</span>
                          <SchoolStatusBadge school={s} />
                          <span>{until ? formatDate(until) : T.noEnd}</span>
                          <DaysLeft school={s} />
                        </div>
                        {/* phones: the actions sit under the school instead of a column that would scroll sideways */}
                        <div className="mt-2 md:hidden">
                          <RowActions school={s} open={setOpen} />
                        </div>
                      </TableCell>
                      <TableCell className="max-md:hidden">{planLabel(s.subscriptionPlan)}</TableCell>
                      <TableCell className="max-md:hidden" data-testid="status"><SchoolStatusBadge school={s} /></TableCell>
                      <TableCell className="whitespace-nowrap max-md:hidden" data-testid="valid-until">{until ? formatDate(until) : T.noEnd}</TableCell>
                      <TableCell className="max-md:hidden" data-testid="days-left"><DaysLeft school={s} /></TableCell>
                      <TableCell className="max-md:hidden"><RowActions school={s} open={setOpen} /></TableCell>
                    </TableRow>
                  );
                })}
              </TableBody>
            </Table>
          )}
        </CardContent>
      </Card>
      {open && current ? (
        open.dialog === 'edit' ? (
          <EditSubscriptionDialog school={current} onClose={() => setOpen(null)} />
        ) : (
          <ManageSchoolDialog key={`${current.id}-${open.section}`} school={current} section={open.section} onClose={() => setOpen(null)} />
        )
      ) : null}
    </div>
  );
}
