import { useQuery } from '@tanstack/react-query';
import { ActivityIcon, CreditCardIcon, DatabaseIcon, HardDriveIcon, MailIcon, MessageSquareIcon, RefreshCwIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { formatIndiaDateTime } from '@/domain/reports';
import { Badge } from '@/web/components/ui/badge';
import { Button } from '@/web/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/web/components/ui/card';
import { Spinner } from '@/web/components/ui/spinner';
import { systemChecksQuery, type CheckStatus } from './api';
import { StatusIcon } from './health-card';
import { formatBytes, formatDuration } from './system-format';
import { STATUS_LABELS, SYSTEM_TEXTS as T } from './texts';

const when = (iso: string | null) => (iso ? formatIndiaDateTime(iso) : T.none);

function StatusBadge({ status }: { status: CheckStatus }) {
  return (
    <Badge variant={status === 'ok' ? 'success' : status === 'warning' ? 'warning' : 'destructive'}>
      <StatusIcon status={status} className="size-3 text-current" />
      {STATUS_LABELS[status]}
    </Badge>
  );
}

function Check({ title, icon, status, children }: { title: string; icon: ReactNode; status: CheckStatus; children: ReactNode }) {
  return (
    <Card data-check={title}>
      <CardHeader className="flex-row items-center justify-between gap-2 space-y-0 pb-3">
        <CardTitle level={2} className="flex items-center gap-2 text-base [&_svg]:size-4 [&_svg]:text-muted-foreground">
          {icon}
          {title}
        </CardTitle>
        <StatusBadge status={status} />
      </CardHeader>
      <CardContent>
        <dl className="grid grid-cols-[minmax(0,auto)_minmax(0,1fr)] gap-x-4 gap-y-1.5 text-sm">{children}</dl>
      </CardContent>
    </Card>
  );
}

function Item({ label, children }: { label: string; children: ReactNode }) {
  return (
    <>
      <dt className="text-muted-foreground">{label}</dt>
      <dd className="min-w-0 break-words text-right font-medium tabular-nums">{children}</dd>
    </>
  );
}

/** The System tab (ruling 22, ruling 31): each check reads the real thing, refreshed every 30 s. */
export function SystemTab() {
  const checks = useQuery(systemChecksQuery());
  if (checks.isPending) return <div className="flex justify-center py-16"><Spinner label={T.loading} /></div>;
  if (checks.isError) return <p role="alert" className="py-16 text-center text-sm text-destructive">{T.failed}</p>;
  const c = checks.data;
  return (
    <div className="grid gap-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <div className="flex items-center gap-2 text-sm text-muted-foreground">
          <StatusBadge status={c.status} />
          <span>{T.checkedAt(formatIndiaDateTime(c.checkedAt))}</span>
        </div>
        <Button variant="outline" size="sm" onClick={() => void checks.refetch()} disabled={checks.isFetching}>
          <RefreshCwIcon className={checks.isFetching ? 'animate-spin' : undefined} />
          {T.refresh}
        </Button>
      </div>
      <div className="grid gap-4 md:grid-cols-2 xl:grid-cols-3">
        <Check title={T.database} icon={<DatabaseIcon />} status={c.database.status}>
          <Item label={T.engine}>{T.kind[c.database.kind]}</Item>
          <Item label={T.latency}>{c.database.latencyMs === null ? c.database.error ?? '—' : `${c.database.latencyMs} ms`}</Item>
          <Item label={T.migration}>
            {c.database.migration ?? '—'}
            <span className="block text-xs font-normal text-muted-foreground">{T.migrations(c.database.migrationsApplied, c.database.migrationsKnown)}</span>
          </Item>
        </Check>
        <Check title={T.mail} icon={<MailIcon />} status={c.mail.status}>
          <Item label={T.sendsThrough}>{T.transport[c.mail.transport]}</Item>
          <Item label={T.waiting}>{c.mail.queued}</Item>
          <Item label={T.failedMails}>{c.mail.failed}</Item>
          <Item label={T.oldest}>{when(c.mail.oldestQueuedAt)}</Item>
          <Item label={T.lastFailure}>
            {c.mail.lastFailure ? (
              <span className="block">
                {formatIndiaDateTime(c.mail.lastFailure.at)} · {c.mail.lastFailure.to}
                <span className="block text-xs font-normal text-muted-foreground">{c.mail.lastFailure.error}</span>
              </span>
            ) : (
              T.none
            )}
          </Item>
        </Check>
        <Check title={T.messages} icon={<MessageSquareIcon />} status={c.messages.status}>
          <Item label={T.sendsThrough}>{T.messagesThrough[c.messages.provider]}</Item>
          <Item label={T.waiting}>{c.messages.pending}</Item>
          <Item label={T.failedMessages}>{c.messages.failed}</Item>
          <Item label={T.lastFailure}>
            {c.messages.lastFailureAt ? (
              <span className="block">
                {formatIndiaDateTime(c.messages.lastFailureAt)}
                <span className="block text-xs font-normal text-muted-foreground">{c.messages.lastError}</span>
              </span>
            ) : (
              T.none
            )}
          </Item>
        </Check>
        <Check title={T.payments} icon={<CreditCardIcon />} status={c.payments.status}>
          <Item label={T.providerLabel}>{T.provider[c.payments.provider]}</Item>
          <Item label={T.modeLabel}>{T.mode[c.payments.mode]}</Item>
          <Item label={T.webhookSecret}>{c.payments.webhookSecretSet ? T.set : T.notSet}</Item>
          <Item label={T.lastWebhook}>
            {c.payments.lastWebhook ? `${formatIndiaDateTime(c.payments.lastWebhook.at)} · ${c.payments.lastWebhook.event ?? '?'} → ${c.payments.lastWebhook.outcome}` : T.never}
          </Item>
          <Item label={T.badWebhooks}>{c.payments.invalidWebhooksLastDay}</Item>
        </Check>
        <Check title={T.disk} icon={<HardDriveIcon />} status={c.disk.status}>
          <Item label="DATA_DIR">{c.disk.dataDir}</Item>
          <Item label={T.free}>
            {formatBytes(c.disk.freeBytes)} / {formatBytes(c.disk.totalBytes)}
          </Item>
          <Item label={T.lastBackup}>{when(c.disk.lastBackupAt)}</Item>
          <Item label={T.backups}>{c.disk.backups}</Item>
        </Check>
        <Check title={T.process} icon={<ActivityIcon />} status={c.process.status}>
          <Item label={T.version}>{c.process.version}</Item>
          <Item label={T.node}>{c.process.nodeVersion}</Item>
          <Item label={T.environment}>{c.process.environment}</Item>
          <Item label={T.uptime}>{formatDuration(c.process.uptimeSeconds)}</Item>
          <Item label={T.memory}>
            {formatBytes(c.process.memory.rssBytes)} / {formatBytes(c.process.memory.heapUsedBytes)}
          </Item>
          <Item label={T.systemMemory}>
            {formatBytes(c.process.memory.systemFreeBytes)} / {formatBytes(c.process.memory.systemTotalBytes)}
          </Item>
          <Item label={T.errors}>
            <span title={T.errorsNote}>{c.process.serverErrorsLastHour}</span>
          </Item>
        </Check>
      </div>
    </div>
  );
}
