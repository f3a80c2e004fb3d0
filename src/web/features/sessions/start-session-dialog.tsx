import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { toast } from '@/web/components/toaster';
import { Alert, AlertDescription } from '@/web/components/ui/alert';
import { Button } from '@/web/components/ui/button';
import { Checkbox } from '@/web/components/ui/checkbox';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/web/components/ui/dialog';
import { Label } from '@/web/components/ui/label';
import { Spinner } from '@/web/components/ui/spinner';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/web/components/ui/table';
import { refusalMessage } from '@/web/lib/form-errors';
import { rupees } from '@/web/lib/format';
import { startPreviewQuery, useStartSession, type AcademicSession } from './api';
import { sessionTexts as t } from './texts';

/** The preview and confirmation of a start: who moves where, who passes out, what each carries. */
export function StartSessionDialog({ session, open, onOpenChange }: { session: AcademicSession; open: boolean; onOpenChange: (open: boolean) => void }) {
  const preview = useQuery({ ...startPreviewQuery(session.id), enabled: open });
  const start = useStartSession();
  const [early, setEarly] = useState(false);
  const data = preview.data;
  const needsEarly = data ? !data.open : false;

  const confirm = () =>
    start.mutate(
      { id: session.id, early: needsEarly && early },
      {
        onSuccess: (res) => {
          toast.success({ title: 'Success', description: res.message });
          onOpenChange(false);
        },
        onError: (e) => toast.error({ title: 'Error', description: refusalMessage(e, t.startFailed) }),
      },
    );

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-h-[90vh] overflow-y-auto sm:max-w-2xl">
        <DialogHeader>
          <DialogTitle>{t.startTitle(session.sessionName)}</DialogTitle>
          <DialogDescription>{data ? t.startSummary(data.from.sessionName, data.to.sessionName) : t.startLoading}</DialogDescription>
        </DialogHeader>
        {preview.isPending ? (
          <Spinner />
        ) : preview.error ? (
          <Alert variant="destructive">
            <AlertDescription>{refusalMessage(preview.error, t.startFailed)}</AlertDescription>
          </Alert>
        ) : data ? (
          <div className="grid gap-4 text-sm">
            <p>{t.carriedThrough(data.throughMonth)}</p>
            <dl className="grid grid-cols-2 gap-2 sm:grid-cols-4" aria-label="Start summary">
              {t.totals(data.totals).map((item) => (
                <div key={item.label} className="rounded-lg border p-2">
                  <dt className="text-xs text-muted-foreground">{item.label}</dt>
                  <dd className="text-lg font-semibold tabular-nums">{item.value}</dd>
                </div>
              ))}
            </dl>
            {data.classes.length === 0 ? (
              <p className="text-muted-foreground">{t.noStudents}</p>
            ) : (
              <Table aria-label="Classes moving up" className="text-xs sm:text-sm [&_td]:px-2 [&_th]:px-2 sm:[&_td]:px-3 sm:[&_th]:px-3">
                <TableHeader>
                  <TableRow>
                    {t.classHeads.map((h, i) => (
                      <TableHead key={h} className={i >= 2 ? 'text-right' : undefined}>
                        {h}
                      </TableHead>
                    ))}
                  </TableRow>
                </TableHeader>
                <TableBody>
                  {data.classes.map((c) => (
                    <TableRow key={c.fromClass}>
                      <TableCell className="whitespace-nowrap">{c.fromClass}</TableCell>
                      <TableCell className="whitespace-nowrap">{c.toClass ?? t.passesOut}</TableCell>
                      <TableCell className="text-right tabular-nums">{c.students}</TableCell>
                      <TableCell className="text-right tabular-nums">{rupees(c.carried)}</TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            )}
            {data.students.length > 0 ? (
              <details className="rounded-lg border">
                <summary className="cursor-pointer px-3 py-2 font-medium">{t.everyStudent(data.students.length)}</summary>
                <div className="max-h-72 overflow-y-auto">
                  <Table aria-label="Students moving up" className="text-xs sm:text-sm [&_td]:px-2 [&_th]:px-2 sm:[&_td]:px-3 sm:[&_th]:px-3">
                    <TableHeader>
                      <TableRow>
                        {t.studentHeads.map((h, i) => (
                          <TableHead key={h} className={i === 3 ? 'text-right' : undefined}>
                            {h}
                          </TableHead>
                        ))}
                      </TableRow>
                    </TableHeader>
                    <TableBody>
                      {data.students.map((s) => (
                        <TableRow key={s.id}>
                          <TableCell>{s.name}</TableCell>
                          <TableCell>
                            {s.fromClass} {s.section}
                          </TableCell>
                          <TableCell>{s.toClass ?? t.passesOut}</TableCell>
                          <TableCell className="text-right tabular-nums">{rupees(s.carried)}</TableCell>
                        </TableRow>
                      ))}
                    </TableBody>
                  </Table>
                </div>
              </details>
            ) : null}
            {needsEarly ? (
              <Alert variant="warning">
                <AlertDescription className="grid gap-2">
                  <p>{t.earlyNotice(data.opensOn, data.from.sessionName)}</p>
                  <Label className="flex items-center gap-2 font-medium">
                    <Checkbox checked={early} onCheckedChange={(v) => setEarly(v === true)} aria-label={t.earlyConfirm} />
                    {t.earlyConfirm}
                  </Label>
                </AlertDescription>
              </Alert>
            ) : null}
          </div>
        ) : null}
        <DialogFooter>
          <Button variant="outline" onClick={() => onOpenChange(false)}>
            {t.cancel}
          </Button>
          <Button onClick={confirm} disabled={!data || start.isPending || (needsEarly && !early)}>
            {start.isPending ? t.starting : t.confirm(session.sessionName)}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
