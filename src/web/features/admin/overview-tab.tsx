import { ActivityIcon, AlertTriangleIcon, CheckCircle2Icon, ClockIcon, SchoolIcon, ShieldIcon, UsersIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { Button } from '@/web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/web/components/ui/card';
import { formatDate } from '@/web/lib/format';
import type { School } from '@/web/lib/me-api';
import { HealthCard } from './health-card';
import { schoolCounts } from './school-stats';
import { SchoolStatusBadge } from './status-badge';
import type { Tab } from './tabs';
import { OVERVIEW_TEXTS as T } from './texts';

export function OverviewTab({ schools, onOpen }: { schools: School[]; onOpen: (tab: Tab) => void }) {
  const counts = schoolCounts(schools);
  const recent = schools.slice(0, 5);
  return (
    <div className="grid gap-5">
      <div className="grid grid-cols-2 gap-3 lg:grid-cols-4">
        <Stat label="Total Schools" value={counts.total} icon={<SchoolIcon />} tone="text-primary bg-primary/10" />
        <Stat label="Active Schools" value={counts.active} icon={<CheckCircle2Icon />} tone="text-success bg-success/15" />
        <Stat label="Trial Schools" value={counts.trial} icon={<ClockIcon />} tone="text-amber-600 bg-warning/20 dark:text-warning" />
        <Stat label="Expired Trials" value={counts.expiredTrials} icon={<AlertTriangleIcon />} tone="text-destructive bg-destructive/10" />
      </div>
      <div className="grid gap-5 lg:grid-cols-3">
        <Card className="lg:col-span-2">
          <CardHeader>
            <CardTitle level={2}>{T.latest}</CardTitle>
            <CardDescription>{T.latestDescription}</CardDescription>
          </CardHeader>
          <CardContent>
            {recent.length === 0 ? (
              <p className="text-sm text-muted-foreground">{T.none}</p>
            ) : (
              <ul className="divide-y">
                {recent.map((s) => (
                  <li key={s.id} className="flex flex-wrap items-center justify-between gap-2 py-2.5 text-sm">
                    <span className="min-w-0">
                      <span className="block truncate font-medium">{s.name}</span>
                      <span className="block truncate text-xs text-muted-foreground">{s.email} · {formatDate(s.createdAt)}</span>
                    </span>
                    <SchoolStatusBadge school={s} />
                  </li>
                ))}
              </ul>
            )}
          </CardContent>
        </Card>
        <div className="grid content-start gap-5">
          <HealthCard onOpenSystem={() => onOpen('system')} />
          <Card>
            <CardHeader>
              <CardTitle level={2}>{T.quickActions}</CardTitle>
            </CardHeader>
            <CardContent className="grid gap-2">
              <Button variant="outline" className="justify-start" onClick={() => onOpen('schools')}>
                <SchoolIcon />
                {T.manageSchools}
              </Button>
              <Button variant="outline" className="justify-start" onClick={() => onOpen('users')}>
                <UsersIcon />
                {T.viewUsers}
              </Button>
              <Button variant="outline" className="justify-start" onClick={() => onOpen('system')}>
                <ActivityIcon />
                {T.system}
              </Button>
              <Button variant="outline" className="justify-start" onClick={() => onOpen('security')}>
                <ShieldIcon />
                {T.security}
              </Button>
            </CardContent>
          </Card>
        </div>
      </div>
    </div>
  );
}

function Stat({ label, value, icon, tone }: { label: string; value: number; icon: ReactNode; tone: string }) {
  return (
    <Card>
      <CardContent className="flex items-center gap-3 p-3 sm:p-5">
        <span className={`flex size-9 shrink-0 sm:size-10 items-center justify-center rounded-lg [&_svg]:size-5 ${tone}`}>{icon}</span>
        <div className="min-w-0">
          <p className="text-2xl font-bold tabular-nums" aria-describedby={`stat-${label}`}>{value}</p>
          <p id={`stat-${label}`} className="text-xs leading-tight text-muted-foreground sm:text-sm">{label}</p>
        </div>
      </CardContent>
    </Card>
  );
}
