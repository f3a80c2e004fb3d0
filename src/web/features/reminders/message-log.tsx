import { useQuery } from '@tanstack/react-query';
import { MessageSquareTextIcon } from 'lucide-react';
import { LoadFailedAlert } from '@/web/components/load-failed-alert';
import { Badge } from '@/web/components/ui/badge';
import { Card, CardContent, CardHeader, CardTitle } from '@/web/components/ui/card';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/web/components/ui/table';
import { formatGeneratedAt } from '@/web/lib/format';
import { messagesQuery, type MessageEntry } from './api';
import { texts } from './texts';

const BADGE: Record<MessageEntry['status'], 'success' | 'warning' | 'destructive' | 'secondary' | 'outline'> = {
  queued: 'secondary',
  sending: 'secondary',
  sent: 'outline',
  delivered: 'success',
  failed: 'destructive',
  shared: 'outline',
};

/** Every reminder to one family: when, how, to which (masked) number, and what became of it (ruling 35). */
export function MessageLog({ studentId }: { studentId: string }) {
  const log = useQuery(messagesQuery(studentId));
  return (
    <Card>
      <CardHeader className="pb-3">
        <CardTitle className="flex items-center gap-2 text-base">
          <MessageSquareTextIcon className="size-4 text-primary" />
          {texts.messageLog}
        </CardTitle>
      </CardHeader>
      <CardContent>
        {log.isError ? (
          <LoadFailedAlert message={texts.messageLogLoadFailed} onRetry={() => log.refetch()} />
        ) : log.isPending ? null : log.data.messages.length === 0 ? (
          <p className="text-sm text-muted-foreground">{texts.messageLogEmpty}</p>
        ) : (
          <div className="overflow-x-auto">
            <Table data-testid="message-log">
              <TableHeader>
                <TableRow>
                  <TableHead>{texts.columns.when}</TableHead>
                  <TableHead>{texts.columns.channel}</TableHead>
                  <TableHead>{texts.columns.to}</TableHead>
                  <TableHead>{texts.columns.status}</TableHead>
                  <TableHead className="hidden sm:table-cell">{texts.columns.link}</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {log.data.messages.map((m) => (
                  <TableRow key={m.id}>
                    <TableCell className="whitespace-nowrap text-xs sm:text-sm">
                      {formatGeneratedAt(m.at)}
                      <span className="block text-xs text-muted-foreground">{texts.originLabels[m.origin]}</span>
                    </TableCell>
                    <TableCell>{texts.channelNames[m.channel]}</TableCell>
                    <TableCell className="whitespace-nowrap">{m.to}</TableCell>
                    <TableCell>
                      <Badge variant={BADGE[m.status]}>{texts.statusLabels[m.status]}</Badge>
                      {m.error ? <span className="mt-1 block max-w-56 text-xs text-destructive">{m.error}</span> : null}
                    </TableCell>
                    <TableCell className="hidden sm:table-cell">
                      {m.linkUrl ? (
                        <a href={m.linkUrl} target="_blank" rel="noreferrer" className="text-primary underline-offset-4 hover:underline">
                          {texts.openLink}
                        </a>
                      ) : null}
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </div>
        )}
      </CardContent>
    </Card>
  );
}
