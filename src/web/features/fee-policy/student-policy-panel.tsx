import { useQuery } from '@tanstack/react-query';
import { AlarmClockIcon, BadgePercentIcon, FileTextIcon, PlusIcon } from 'lucide-react';
import { useState } from 'react';
import { monthLabel } from '@/domain/ledger';
import { parseRupees } from '@/domain/money';
import type { FeeStatusPanelProps } from '@/web/app/feature-slots';
import { toast } from '@/web/components/toaster';
import { Badge } from '@/web/components/ui/badge';
import { Button } from '@/web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/web/components/ui/card';
import { downloadFile } from '@/web/lib/download';
import { refusalMessage } from '@/web/lib/form-errors';
import { formatDate, rupees } from '@/web/lib/format';
import { instalmentsQuery, paths, policyApi, studentConcessionsQuery, studentFineQuery, studentWaiversQuery, useRefreshPolicy, type FineLine } from './api';
import { ConcessionRequestDialog } from './concession-request-dialog';
import { ReasonDialog } from './reason-dialog';
import { texts } from './texts';
import { useCan } from '@/web/app/permissions';

const STATUS_BADGE = { requested: 'warning', approved: 'success', rejected: 'secondary' } as const;

/** Fee Status, under a student's dues: today's fine, concessions, instalments and the session statement. */
export function StudentPolicyPanel({ student, academicYear }: FeeStatusPanelProps) {
  return (
    <div className="grid gap-4 lg:grid-cols-2">
      <FineCard studentId={student.id} academicYear={academicYear} />
      <ConcessionsCard student={student} academicYear={academicYear} />
      <InstalmentsCard studentId={student.id} academicYear={academicYear} />
      {/* StatementCard joins when the server has the statement PDF */}
    </div>
  );
}

function FineCard({ studentId, academicYear }: { studentId: string; academicYear: string }) {
  const fine = useQuery(studentFineQuery(studentId, academicYear));
  const waivers = useQuery(studentWaiversQuery(studentId));
  const refresh = useRefreshPolicy();
  const [waiving, setWaiving] = useState<FineLine | null>(null);
  const can = useCan();
  const f = fine.data;
  if (!f || !f.enabled) return null;
  const pending = new Set((waivers.data ?? []).filter((w) => w.status === 'requested').map((w) => w.instalment));
  return (
    <Card role="region" aria-label={texts.fineToday} data-testid="student-fine">
      <CardHeader className="flex-row items-start justify-between gap-2 pb-3">
        <div className="grid gap-1">
          <CardTitle className="flex items-center gap-2 text-base">
            <AlarmClockIcon className="size-4 text-primary" />
            {texts.fineToday}
          </CardTitle>
          <CardDescription>{formatDate(f.asOf)}</CardDescription>
        </div>
        <span className="text-lg font-semibold tabular-nums text-amber-700 dark:text-warning" data-testid="fine-due">
          {rupees(f.due)}
        </span>
      </CardHeader>
      <CardContent className="grid gap-2 text-sm">
        {f.lines.length === 0 ? <p className="text-muted-foreground">{texts.fineNone}</p> : null}
        {f.lines.length > 0 ? <p className="text-xs font-medium text-muted-foreground">{texts.fineHow}</p> : null}
        <ul className="grid gap-2">
          {f.lines.map((line) => (
            <li key={line.instalment} className="flex flex-wrap items-center justify-between gap-2 rounded-md border px-3 py-2">
              <span className="min-w-0 flex-1">{line.explanation}</span>
              {line.waived ? (
                <Badge variant="secondary">{texts.waived}</Badge>
              ) : pending.has(line.instalment) ? (
                <Badge variant="warning">{texts.waiverPending}</Badge>
              ) : can('concessions.request') ? (
                <Button size="sm" variant="outline" onClick={() => setWaiving(line)}>
                  {texts.waiveFine}
                </Button>
              ) : null}
            </li>
          ))}
        </ul>
        {(parseRupees(f.due) ?? 0) > 0 ? <p className="text-xs text-muted-foreground">{texts.collectHint}</p> : null}
      </CardContent>
      <ReasonDialog
        open={waiving !== null}
        onOpenChange={(open) => !open && setWaiving(null)}
        title={texts.waiveTitle}
        description={waiving ? `${waiving.label}: ${rupees(waiving.amount)}. ${texts.waiveDescription}` : texts.waiveDescription}
        confirmLabel={texts.waiveFine}
        onConfirm={async (reason) => {
          await policyApi.requestWaiver({ studentId, academicYear, instalment: waiving!.instalment, reason });
          toast.success({ title: texts.waiverRequested });
          await refresh();
        }}
      />
    </Card>
  );
}

function ConcessionsCard({ student, academicYear }: { student: { id: string; name: string }; academicYear: string }) {
  const list = useQuery(studentConcessionsQuery(student.id, academicYear));
  const [open, setOpen] = useState(false);
  const can = useCan();
  const items = list.data ?? [];
  return (
    <Card role="region" aria-label={texts.studentConcessions} data-testid="student-concessions">
      <CardHeader className="flex-row flex-wrap items-start justify-between gap-2 pb-3">
        <div className="grid gap-1">
          <CardTitle className="flex items-center gap-2 text-base">
            <BadgePercentIcon className="size-4 text-primary" />
            {texts.studentConcessions}
          </CardTitle>
          <CardDescription>{texts.studentConcessionsDescription}</CardDescription>
        </div>
        {can('concessions.request') ? (
          <Button size="sm" variant="outline" onClick={() => setOpen(true)}>
            <PlusIcon />
            {texts.requestConcession}
          </Button>
        ) : null}
      </CardHeader>
      <CardContent className="grid gap-2 text-sm">
        {items.length === 0 ? <p className="text-muted-foreground">{list.isPending ? '' : texts.noConcessions}</p> : null}
        <ul className="grid gap-2">
          {items.map((c) => (
            <li key={c.id} className="grid gap-1 rounded-md border px-3 py-2">
              <div className="flex flex-wrap items-center justify-between gap-2">
                <span className="font-medium">{texts.concessionLine(c.type.name, rupees(c.amountInSession))}</span>
                <Badge variant={STATUS_BADGE[c.status]}>{c.statusLabel || texts.status[c.status]}</Badge>
              </div>
              <span className="text-xs text-muted-foreground">
                {c.type.description} · {texts.months(monthLabel(c.fromMonth), c.toMonth ? monthLabel(c.toMonth) : null)}
                {c.decidedBy ? ` · ${c.status === 'approved' ? texts.approved : texts.rejected}: ${c.decidedBy}` : ''}
                {c.decisionReason ? ` (${c.decisionReason})` : ''}
              </span>
            </li>
          ))}
        </ul>
      </CardContent>
      <ConcessionRequestDialog student={student} academicYear={academicYear} open={open} onOpenChange={setOpen} />
    </Card>
  );
}

export function InstalmentsCard({ studentId, academicYear }: { studentId: string; academicYear: string }) {
  const plan = useQuery(instalmentsQuery(studentId, academicYear));
  // monthly collection is what the month cards above already show
  if (!plan.data || plan.data.plan === 'monthly' || plan.data.instalments.length === 0) return null;
  return (
    <Card role="region" aria-label={texts.instalmentsTitle} data-testid="student-instalments">
      <CardHeader className="pb-3">
        <CardTitle className="text-base">
          {texts.instalmentsTitle}: {texts.plans[plan.data.plan] ?? plan.data.plan}
        </CardTitle>
        <CardDescription>{texts.instalmentsDescription}</CardDescription>
      </CardHeader>
      <CardContent>
        <ul className="grid gap-2 text-sm">
          {plan.data.instalments.map((i) => {
            const owed = (parseRupees(i.outstanding) ?? 0) > 0;
            return (
              <li key={i.key} data-testid={`instalment-${i.key}`} className="grid gap-1 rounded-md border px-3 py-2">
                <div className="flex flex-wrap items-baseline justify-between gap-x-3">
                  <span className="font-medium">{i.label}</span>
                  {/* what this student is to pay of it: months before they joined and approved concessions left out */}
                  <span className="font-semibold tabular-nums">{rupees(i.due)}</span>
                </div>
                <div className="flex flex-wrap items-center justify-between gap-x-3 gap-y-1 text-xs text-muted-foreground">
                  <span>
                    {texts.dueOn} {formatDate(i.dueDate)}
                  </span>
                  <span className="flex flex-wrap items-center gap-x-3 gap-y-1 tabular-nums">
                    <span>
                      {texts.instalmentPaid} {rupees(i.paid)}
                    </span>
                    <span className={owed && i.fallenDue ? 'font-medium text-amber-700 dark:text-warning' : undefined}>
                      {texts.instalmentOutstanding} {rupees(i.outstanding)}
                    </span>
                    {owed && i.fallenDue ? <Badge variant="warning">{texts.instalmentFallenDue}</Badge> : null}
                    {!owed ? <Badge variant="success">{texts.instalmentSettled}</Badge> : null}
                  </span>
                </div>
              </li>
            );
          })}
        </ul>
      </CardContent>
    </Card>
  );
}

export function StatementCard({ studentId, studentName, academicYear }: { studentId: string; studentName: string; academicYear: string }) {
  const [busy, setBusy] = useState(false);
  const download = async () => {
    setBusy(true);
    try {
      await downloadFile(paths.statement(studentId, academicYear), `statement-${studentName.replace(/\W+/g, '-')}-${academicYear}.pdf`);
    } catch (error) {
      toast.error({ title: texts.downloadFailed, description: refusalMessage(error, texts.downloadFailed) });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Card role="region" aria-label={texts.sessionStatement}>
      <CardHeader className="pb-3">
        <CardTitle className="text-base">{texts.sessionStatement}</CardTitle>
        <CardDescription>{texts.statementDescription(academicYear)}</CardDescription>
      </CardHeader>
      <CardContent>
        <Button variant="outline" onClick={() => void download()} disabled={busy}>
          <FileTextIcon />
          {texts.sessionStatement} (PDF)
        </Button>
      </CardContent>
    </Card>
  );
}
