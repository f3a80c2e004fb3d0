import { useQuery } from '@tanstack/react-query';
import { AlertTriangleIcon, CheckCircle2Icon, XCircleIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { Button } from '@/web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/web/components/ui/card';
import { Spinner } from '@/web/components/ui/spinner';
import { cn } from '@/web/lib/utils';
import { systemHealthQuery, type CheckStatus } from './api';
import { HEALTH_TEXTS as T } from './texts';

export function StatusIcon({ status, className }: { status: CheckStatus; className?: string }) {
  if (status === 'ok') return <CheckCircle2Icon aria-hidden className={cn('size-4 shrink-0 text-success', className)} />;
  if (status === 'warning') return <AlertTriangleIcon aria-hidden className={cn('size-4 shrink-0 text-amber-600 dark:text-warning', className)} />;
  return <XCircleIcon aria-hidden className={cn('size-4 shrink-0 text-destructive', className)} />;
}

function Row({ status, label, detail }: { status: CheckStatus; label: string; detail: ReactNode }) {
  return (
    <li className="flex items-start gap-2 py-1.5 text-sm" data-status={status}>
      <StatusIcon status={status} className="mt-0.5" />
      <span className="min-w-0 flex-1">
        <span className="block font-medium">{label}</span>
        <span className="block text-xs text-muted-foreground">{detail}</span>
      </span>
    </li>
  );
}

/** The Overview's System Health card (platform §2), live instead of static text (ruling 22). */
export function HealthCard({ onOpenSystem }: { onOpenSystem: () => void }) {
  const health = useQuery(systemHealthQuery());
  return (
    <Card>
      <CardHeader>
        <CardTitle level={2}>{T.title}</CardTitle>
        <CardDescription>{T.description}</CardDescription>
      </CardHeader>
      <CardContent>
        {health.isPending ? (
          <div className="flex justify-center py-4"><Spinner label={T.loading} /></div>
        ) : health.isError ? (
          <p role="alert" className="text-sm text-destructive">{T.failed}</p>
        ) : (
          <>
            <ul aria-label={T.title}>
              <Row status={health.data.database.status} label={T.database[health.data.database.status]} detail={health.data.database.latencyMs === null ? '—' : T.latency(health.data.database.latencyMs)} />
              <Row status={health.data.api.status} label={T.api[health.data.api.status]} detail={T.errors(health.data.api.serverErrorsLastHour)} />
              <Row status={health.data.authentication.status} label={T.authentication[health.data.authentication.status]} detail={T.locked(health.data.authentication.lockedCount)} />
              <Row status={health.data.mail.status} label={T.mail[health.data.mail.status]} detail={T.queued(health.data.mail.queued, health.data.mail.failed)} />
              <Row status={health.data.payments.status} label={T.payments[health.data.payments.status]} detail={T.mode[health.data.payments.mode]} />
            </ul>
            <Button variant="link" size="sm" className="mt-1 h-auto px-0" onClick={onOpenSystem}>{T.open}</Button>
          </>
        )}
      </CardContent>
    </Card>
  );
}
