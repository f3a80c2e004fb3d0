import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { CalendarRangeIcon, CheckCircle2Icon, InfoIcon } from 'lucide-react';
import { indiaDate, sessionMonths } from '@/domain/sessions';
import { toast } from '@/web/components/toaster';
import { Alert, AlertDescription, AlertTitle } from '@/web/components/ui/alert';
import { Badge } from '@/web/components/ui/badge';
import { Button } from '@/web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/web/components/ui/card';
import { Progress } from '@/web/components/ui/progress';
import { Spinner } from '@/web/components/ui/spinner';
import { formatDate } from '@/web/lib/format';
import { refusalMessage } from '@/web/lib/form-errors';
import { ConfirmDialog } from '@/web/components/ui/confirm-dialog';
import { activeSessionQuery, sessionsQuery, useActivateSession, useUndoStart, type AcademicSession } from './api';
import { promotionState, type PromotionState } from './promotion-state';
import { StartSessionDialog } from './start-session-dialog';
import { sessionTexts as t } from './texts';
import { NewSessionForm } from './new-session-form';

/** Academic Session Management (operations §2): the active session, a new one, all of them. */
export function SessionsTab() {
  const sessions = useQuery(sessionsQuery());
  const active = useQuery(activeSessionQuery());

  return (
    <section aria-labelledby="sessions-heading" className="grid gap-4">
      <div>
        <h2 id="sessions-heading" className="text-2xl font-semibold tracking-tight">{t.heading}</h2>
        <p className="text-sm text-muted-foreground">{t.intro}</p>
      </div>
      <div className="grid gap-4 lg:grid-cols-2">
        <ActiveSessionCard session={active.data ?? null} loading={active.isPending} />
        <NewSessionForm active={active.data ?? null} latest={[...(sessions.data ?? [])].sort((a, b) => b.startDate.localeCompare(a.startDate))[0] ?? null} />
      </div>
      <SessionList sessions={sessions.data} active={active.data ?? null} loading={sessions.isPending} error={sessions.error} />
      <Alert variant="info">
        <InfoIcon />
        <AlertTitle>{t.howTitle}</AlertTitle>
        <AlertDescription>
          {t.how.map((line) => (
            <p key={line} className="mt-1 first:mt-0">
              {line}
            </p>
          ))}
        </AlertDescription>
      </Alert>
    </section>
  );
}

function PromotionBadge({ state }: { state: PromotionState }) {
  if (state === 'none') return null;
  return state === 'completed' ? <Badge variant="success">{t.promotionCompleted}</Badge> : <Badge variant="warning">{t.promotionPending}</Badge>;
}

function ActiveSessionCard({ session, loading }: { session: AcademicSession | null; loading: boolean }) {
  return (
    <Card role="region" aria-label="Active session">
      <CardHeader>
        <CardDescription>Active Session</CardDescription>
        {loading ? (
          <Spinner />
        ) : session ? (
          <CardTitle className="flex items-center gap-2 text-2xl">
            <CalendarRangeIcon className="size-6 text-primary" />
            {session.sessionName}
          </CardTitle>
        ) : (
          <CardTitle className="text-lg">No active session</CardTitle>
        )}
      </CardHeader>
      <CardContent className="grid gap-3 text-sm">
        {session ? (
          <>
            <p>
              {formatDate(session.startDate)} to {formatDate(session.endDate)}
            </p>
            <SessionProgress session={session} />
            <div className="flex flex-wrap gap-2">
              <Badge variant="success">
                <CheckCircle2Icon className="size-3" />
                Active
              </Badge>
              <PromotionBadge state={promotionState(session, session)} />
            </div>
          </>
        ) : loading ? null : (
          <p className="text-muted-foreground">Create a session, or activate one from the list below, so fees and students have a year to belong to.</p>
        )}
      </CardContent>
    </Card>
  );
}

/** "Month 8 of 12": where today falls in the session. */
function SessionProgress({ session }: { session: AcademicSession }) {
  const months = sessionMonths(session.startDate, session.endDate);
  const current = indiaDate(new Date()).slice(0, 7);
  const index = months.findIndex((m) => m.key === current);
  if (!months.length) return null;
  const label = index >= 0 ? `Month ${index + 1} of ${months.length}` : current < months[0]!.key ? 'Not started yet' : 'Ended';
  const done = index >= 0 ? index + 1 : current < months[0]!.key ? 0 : months.length;
  return (
    <div className="grid gap-1.5">
      <div className="flex justify-between text-xs text-muted-foreground">
        <span>{label}</span>
        <span>{months.length} months</span>
      </div>
      <Progress value={(done / months.length) * 100} label="Session progress" />
    </div>
  );
}

function SessionList({
  sessions,
  active,
  loading,
  error,
}: {
  sessions: AcademicSession[] | undefined;
  active: AcademicSession | null;
  loading: boolean;
  error: Error | null;
}) {
  const activate = useActivateSession();
  const undo = useUndoStart();
  const [starting, setStarting] = useState<AcademicSession | null>(null);
  const [undoing, setUndoing] = useState<AcademicSession | null>(null);
  const run = (session: AcademicSession) =>
    activate.mutate(session.id, {
      onSuccess: () => toast.success({ title: 'Success', description: t.activated }),
      onError: (e) => toast.error({ title: 'Error', description: refusalMessage(e, t.activateFailed) }),
    });
  // a later session the school has not started yet is started, not activated
  const startable = (s: AcademicSession) => promotionState(s, active) === 'pending';

  return (
    <Card>
      <CardHeader>
        <CardTitle>All Sessions</CardTitle>
      </CardHeader>
      <CardContent>
        {loading ? (
          <Spinner />
        ) : error ? (
          <p className="text-sm text-destructive">Failed to fetch academic sessions: {error.message}</p>
        ) : !sessions?.length ? (
          <p className="text-sm text-muted-foreground">No academic sessions yet.</p>
        ) : (
          <ul className="divide-y rounded-lg border" aria-label="Academic sessions">
            {sessions.map((s) => (
              <li key={s.id} className="flex flex-wrap items-center gap-x-4 gap-y-2 p-3">
                <div className="min-w-40 flex-1">
                  <p className="font-medium">{s.sessionName}</p>
                  <p className="text-xs text-muted-foreground">
                    {formatDate(s.startDate)} to {formatDate(s.endDate)}
                  </p>
                </div>
                <div className="flex flex-wrap gap-1.5">
                  {s.isActive ? <Badge variant="success">Active</Badge> : <Badge variant="secondary">Inactive</Badge>}
                  <PromotionBadge state={promotionState(s, active)} />
                </div>
                {startable(s) ? (
                  <Button size="sm" onClick={() => setStarting(s)}>
                    {t.start(s.sessionName)}
                  </Button>
                ) : s.isActive ? (
                  s.canUndoStart ? (
                    <Button size="sm" variant="outline" onClick={() => setUndoing(s)} disabled={undo.isPending}>
                      {t.undo}
                    </Button>
                  ) : null
                ) : (
                  <Button size="sm" variant="outline" onClick={() => run(s)} disabled={activate.isPending} aria-label={`Activate Session ${s.sessionName}`}>
                    {activate.isPending && activate.variables === s.id ? 'Activating...' : 'Activate Session'}
                  </Button>
                )}
              </li>
            ))}
          </ul>
        )}
      </CardContent>
      {starting ? <StartSessionDialog session={starting} open onOpenChange={(open) => !open && setStarting(null)} /> : null}
      <ConfirmDialog
        open={undoing !== null}
        onOpenChange={(open) => !open && setUndoing(null)}
        title={undoing ? t.undoTitle(undoing.sessionName) : ''}
        description={t.undoDescription}
        confirmLabel={t.undoConfirm}
        destructive
        onConfirm={() =>
          undoing &&
          undo.mutate(undoing.id, {
            onSuccess: (res) => toast.success({ title: 'Success', description: res.message }),
            onError: (e) => toast.error({ title: 'Error', description: refusalMessage(e, t.undoFailed) }),
          })
        }
      />
    </Card>
  );
}
