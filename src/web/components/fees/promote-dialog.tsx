import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { CLASSES, nextClass, normaliseClass } from '@/domain/classes';
import { PROMOTE_REQUIRED_MESSAGE, type PromoteInput } from '@/domain/ledger';
import { toast } from '@/web/components/toaster';
import { Alert, AlertDescription } from '@/web/components/ui/alert';
import { Button } from '@/web/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/web/components/ui/dialog';
import { Input, NativeSelect } from '@/web/components/ui/input';
import { Field } from '@/web/components/ui/label';
import { rupees } from '@/web/lib/format';
import { refreshLedger } from '@/web/lib/ledger-api';
import { api } from '@/web/lib/request';
import { sessionsQuery } from '@/web/lib/school-data';
import { serverMessage } from '@/web/lib/form-errors';
import type { FeeStudent } from './fee-student';

export interface PromoteAnswer {
  message: string;
  student: { id: string; name: string; className: string; section: string; rollNumber: number; sessionId: string; academicYear: string };
  previousBalance: { academicYear: string; monthlyOutstanding: string; yearlyOutstanding: string; balance: string };
}

/**
 * Promote Student (operations §2, §3, §5): to a class of a later session. The server carries the
 * old session's outstanding forward as a previous balance and gives the next roll number.
 */
export function PromoteDialog({
  student,
  open,
  onOpenChange,
  onPromoted,
}: {
  student: FeeStudent;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onPromoted?: (answer: PromoteAnswer) => void;
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent>
        {open ? <PromoteForm student={student} onDone={() => onOpenChange(false)} onPromoted={onPromoted} /> : null}
      </DialogContent>
    </Dialog>
  );
}

function PromoteForm({ student, onDone, onPromoted }: { student: FeeStudent; onDone: () => void; onPromoted?: (answer: PromoteAnswer) => void }) {
  const queryClient = useQueryClient();
  const sessions = useQuery(sessionsQuery());
  const list = sessions.data ?? [];
  const current = list.find((s) => s.id === student.sessionId) ?? list.find((s) => s.isActive);
  const canonical = normaliseClass(student.class);
  const [fromSession, setFromSession] = useState(current?.sessionName ?? '');
  const [toClass, setToClass] = useState<string>((canonical && nextClass(canonical)) ?? '');
  const from = list.find((s) => s.sessionName === (fromSession || current?.sessionName));
  const later = list.filter((s) => from && s.startDate > from.startDate).sort((a, b) => a.startDate.localeCompare(b.startDate));
  const [toSession, setToSession] = useState('');
  const chosenTo = toSession || later[0]?.sessionName || '';

  const promote = useMutation({
    mutationFn: (input: PromoteInput) => api.post<PromoteAnswer>(`/api/students/${student.id}/promote`, input),
    onSuccess: () => refreshLedger(queryClient),
  });

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const input = { toClass, toSession: chosenTo, fromClass: student.class, fromSession: fromSession || current?.sessionName || '' };
    if (!input.toClass || !input.toSession || !input.fromSession) {
      toast.error({ title: 'Validation Error', description: PROMOTE_REQUIRED_MESSAGE });
      return;
    }
    // through the promise: a promoted student leaves the class shown, so this dialog may be gone
    // before mutate's own callbacks would run, and TanStack Query drops them then (as Delete Student)
    void promote.mutateAsync(input).then(
      (answer) => {
        const carried = rupees(answer.previousBalance.balance);
        toast.success({
          title: 'Student Promoted',
          description: `${answer.message} Outstanding of ${answer.previousBalance.academicYear} carried forward: ${carried}.`,
        });
        onPromoted?.(answer);
        onDone();
      },
      (error: unknown) =>
        toast.error({
          title: 'Promotion Failed',
          description: serverMessage(error) ?? 'Failed to promote student. Please try again.',
        }),
    );
  };

  return (
    <>
      <DialogHeader>
        <DialogTitle>Promote Student</DialogTitle>
        <DialogDescription>
          {student.name} · {student.class}-{student.section} · Roll No. {student.rollNumber}
        </DialogDescription>
      </DialogHeader>
      <form onSubmit={submit} noValidate className="grid gap-4">
        <div className="grid gap-3 sm:grid-cols-2">
          <Field label="From Session *" htmlFor="promote-from-session">
            <NativeSelect id="promote-from-session" value={fromSession || current?.sessionName || ''} onChange={(e) => setFromSession(e.target.value)}>
              <option value="">Select session</option>
              {list.map((s) => (
                <option key={s.id} value={s.sessionName}>
                  {s.sessionName}
                </option>
              ))}
            </NativeSelect>
          </Field>
          <Field label="From Class" htmlFor="promote-from-class">
            <Input id="promote-from-class" value={student.class} readOnly />
          </Field>
          <Field label="To Class *" htmlFor="promote-to-class">
            <NativeSelect id="promote-to-class" value={toClass} onChange={(e) => setToClass(e.target.value)}>
              <option value="">Select class</option>
              {CLASSES.map((c) => (
                <option key={c} value={c}>
                  {c}
                </option>
              ))}
            </NativeSelect>
          </Field>
          <Field label="To Session *" htmlFor="promote-to-session">
            <NativeSelect id="promote-to-session" value={chosenTo} onChange={(e) => setToSession(e.target.value)}>
              <option value="">Select session</option>
              {later.map((s) => (
                <option key={s.id} value={s.sessionName}>
                  {s.sessionName}
                </option>
              ))}
            </NativeSelect>
          </Field>
        </div>
        {sessions.isSuccess && later.length === 0 ? (
          <Alert variant="info">
            <AlertDescription>
              There is no session after {from?.sessionName ?? 'this one'} yet. Create it under Session Management: creating a new session promotes every
              student automatically.
            </AlertDescription>
          </Alert>
        ) : (
          <p className="text-sm text-muted-foreground">
            Whatever {student.name} still owes for {from?.sessionName ?? 'the current session'} is carried forward as a previous balance and stays collectable.
          </p>
        )}
        <DialogFooter>
          <Button variant="outline" onClick={onDone}>
            Cancel
          </Button>
          <Button type="submit" disabled={promote.isPending}>
            {promote.isPending ? 'Promoting...' : 'Promote Student'}
          </Button>
        </DialogFooter>
      </form>
    </>
  );
}
