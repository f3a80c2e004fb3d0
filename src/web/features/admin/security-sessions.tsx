import { useQuery, useQueryClient } from '@tanstack/react-query';
import { LockOpenIcon, LogOutIcon } from 'lucide-react';
import { useState } from 'react';
import { formatIndiaDateTime } from '@/domain/reports';
import { ReasonDialog, type ReasonDialogTexts } from '@/web/components/reason-dialog';
import { toast } from '@/web/components/toaster';
import { Badge } from '@/web/components/ui/badge';
import { Button } from '@/web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/web/components/ui/card';
import { Spinner } from '@/web/components/ui/spinner';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/web/components/ui/table';
import { locksQuery, securityApi, sessionsQuery, type LiveSession, type Lock } from './api';
import { describeBrowser } from './system-format';
import { SECURITY_TEXTS as T } from './texts';

const reasonTexts: ReasonDialogTexts = {
  reason: T.reason,
  reasonRequired: T.reasonNeeded,
  placeholder: T.reasonPlaceholder,
  cancel: T.cancel,
  saving: T.working,
  failed: T.reasonFailed,
};

/** Everyone signed in now, with Revoke (audited with a reason). */
export function SessionsCard() {
  const sessions = useQuery(sessionsQuery());
  const queryClient = useQueryClient();
  const [revoking, setRevoking] = useState<LiveSession | null>(null);
  return (
    <Card>
      <CardHeader>
        <CardTitle level={2}>{T.sessions}</CardTitle>
        <CardDescription>{T.sessionsDescription}</CardDescription>
      </CardHeader>
      <CardContent>
        {sessions.isPending ? (
          <div className="flex justify-center py-8"><Spinner /></div>
        ) : sessions.isError ? (
          <p role="alert" className="py-4 text-sm text-destructive">{sessions.error.message}</p>
        ) : sessions.data.length === 0 ? (
          <p className="py-8 text-center text-sm text-muted-foreground">{T.noSessions}</p>
        ) : (
          <Table aria-label={T.sessions}>
            <TableHeader>
              <TableRow>
                <TableHead>{T.who}</TableHead>
                <TableHead className="max-md:hidden">{T.ip}</TableHead>
                <TableHead className="max-md:hidden">{T.browser}</TableHead>
                <TableHead className="max-sm:hidden">{T.started}</TableHead>
                <TableHead className="text-right"><span className="sr-only">{T.revoke}</span></TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {sessions.data.map((s) => (
                <TableRow key={s.id} data-session={s.id}>
                  <TableCell>
                    <div className="[overflow-wrap:anywhere] font-medium">{s.email}</div>
                    <div className="flex flex-wrap items-center gap-1.5 text-xs text-muted-foreground">
                      <span>{s.schoolName ?? T.platform}</span>
                      {s.current ? <Badge variant="success">{T.thisSession}</Badge> : null}
                      {s.kind === 'remember' ? <Badge variant="secondary">{T.remember}</Badge> : null}
                    </div>
                    <div className="mt-1 text-xs text-muted-foreground md:hidden">
                      {s.ip ?? '—'} · {describeBrowser(s.userAgent)}
                    </div>
                  </TableCell>
                  <TableCell className="font-mono text-xs max-md:hidden">{s.ip ?? '—'}</TableCell>
                  <TableCell className="max-md:hidden" title={s.userAgent ?? undefined}>{describeBrowser(s.userAgent)}</TableCell>
                  <TableCell className="whitespace-nowrap max-sm:hidden">
                    {formatIndiaDateTime(s.createdAt)}
                    <div className="text-xs text-muted-foreground">{T.expires} {formatIndiaDateTime(s.expiresAt)}</div>
                  </TableCell>
                  <TableCell className="text-right">
                    <Button variant="outline" size="sm" onClick={() => setRevoking(s)} aria-label={`${T.revoke} ${s.email}`}>
                      <LogOutIcon />
                      {T.revoke}
                    </Button>
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
      </CardContent>
      <ReasonDialog
        open={revoking !== null}
        onOpenChange={(open) => !open && setRevoking(null)}
        title={T.revokeTitle}
        description={revoking ? T.revokeDescription(revoking.email) : ''}
        confirmLabel={T.revoke}
        texts={reasonTexts}
        destructive
        onConfirm={async (reason) => {
          await securityApi.revokeSession(revoking!.id, reason);
          toast.success({ title: T.revoked });
          await queryClient.invalidateQueries({ queryKey: ['/api/admin/security/sessions'] });
          await queryClient.invalidateQueries({ queryKey: ['/api/admin/audit-log'] });
          if (revoking!.current) window.location.replace('/admin-login');
        }}
      />
    </Card>
  );
}

const lockSubject = (l: Lock) => [l.email, l.ip].filter(Boolean).join(' from ');

/** What the sign-in limit holds now, with Unlock (audited with a reason). */
export function LocksCard() {
  const locks = useQuery(locksQuery());
  const queryClient = useQueryClient();
  const [unlocking, setUnlocking] = useState<Lock | null>(null);
  return (
    <Card>
      <CardHeader>
        <CardTitle level={2}>{T.locks}</CardTitle>
        <CardDescription>{T.locksDescription}</CardDescription>
      </CardHeader>
      <CardContent>
        {locks.isPending ? (
          <div className="flex justify-center py-8"><Spinner /></div>
        ) : locks.isError ? (
          <p role="alert" className="py-4 text-sm text-destructive">{locks.error.message}</p>
        ) : locks.data.length === 0 ? (
          <p className="py-8 text-center text-sm text-muted-foreground">{T.noLocks}</p>
        ) : (
          <Table aria-label={T.locks}>
            <TableHeader>
              <TableRow>
                <TableHead>{T.who}</TableHead>
                <TableHead className="max-sm:hidden">{T.failures}</TableHead>
                <TableHead className="max-sm:hidden">{T.until}</TableHead>
                <TableHead className="text-right"><span className="sr-only">{T.unlock}</span></TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {locks.data.map((l) => (
                <TableRow key={l.key}>
                  <TableCell>
                    <div className="[overflow-wrap:anywhere] font-medium">{lockSubject(l)}</div>
                    <div className="text-xs text-muted-foreground">{T.lockKinds[l.kind] ?? l.kind}</div>
                    <div className="text-xs text-muted-foreground sm:hidden">
                      {T.failures}: {l.failures} · {T.until} {formatIndiaDateTime(l.lockedUntil)}
                    </div>
                  </TableCell>
                  <TableCell className="tabular-nums max-sm:hidden">{l.failures}</TableCell>
                  <TableCell className="whitespace-nowrap max-sm:hidden">{formatIndiaDateTime(l.lockedUntil)}</TableCell>
                  <TableCell className="text-right">
                    <Button variant="outline" size="sm" onClick={() => setUnlocking(l)} aria-label={`${T.unlock} ${lockSubject(l)}`}>
                      <LockOpenIcon />
                      {T.unlock}
                    </Button>
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
      </CardContent>
      <ReasonDialog
        open={unlocking !== null}
        onOpenChange={(open) => !open && setUnlocking(null)}
        title={T.unlockTitle}
        description={unlocking ? T.unlockDescription(lockSubject(unlocking)) : ''}
        confirmLabel={T.unlock}
        texts={reasonTexts}
        destructive
        onConfirm={async (reason) => {
          await securityApi.unlock(unlocking!.key, reason);
          toast.success({ title: T.unlocked });
          await queryClient.invalidateQueries({ queryKey: ['/api/admin/security/locks'] });
          await queryClient.invalidateQueries({ queryKey: ['/api/admin/system-health'] });
          await queryClient.invalidateQueries({ queryKey: ['/api/admin/audit-log'] });
        }}
      />
    </Card>
  );
}
