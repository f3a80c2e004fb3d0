import { useQuery } from '@tanstack/react-query';
import { useMemo, useState, type FormEvent } from 'react';
import { sessionMonths } from '@/domain/sessions';
import { toast } from '@/web/components/toaster';
import { Button } from '@/web/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/web/components/ui/dialog';
import { NativeSelect, Textarea } from '@/web/components/ui/input';
import { Field } from '@/web/components/ui/label';
import { serverMessage } from '@/web/lib/form-errors';
import { sessionsQuery } from '@/web/lib/school-data';
import { policyApi, typesQuery, useRefreshPolicy } from './api';
import { texts } from './texts';

/** Request concession (Fee Status): type, session, from month, optional to month, reason. */
export function ConcessionRequestDialog({
  student,
  academicYear,
  open,
  onOpenChange,
}: {
  student: { id: string; name: string };
  academicYear: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent>{open ? <RequestForm student={student} academicYear={academicYear} onClose={() => onOpenChange(false)} /> : null}</DialogContent>
    </Dialog>
  );
}

function RequestForm({ student, academicYear, onClose }: { student: { id: string; name: string }; academicYear: string; onClose: () => void }) {
  const types = useQuery(typesQuery);
  const sessions = useQuery(sessionsQuery());
  const refresh = useRefreshPolicy();
  const [typeId, setTypeId] = useState('');
  const [year, setYear] = useState(academicYear);
  const [fromMonth, setFromMonth] = useState('');
  const [toMonth, setToMonth] = useState('');
  const [reason, setReason] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const session = sessions.data?.find((s) => s.sessionName === year);
  const months = useMemo(() => (session ? sessionMonths(session.startDate, session.endDate) : []), [session]);
  const from = fromMonth || months[0]?.key || '';
  const active = types.data?.filter((t) => t.active !== false) ?? [];

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found: Record<string, string> = {};
    if (!typeId) found.type = texts.chooseType;
    if (toMonth && toMonth < from) found.toMonth = texts.monthOrder;
    if (reason.trim().length < 3) found.reason = texts.reasonRequired;
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    setBusy(true);
    try {
      await policyApi.request({ studentId: student.id, typeId, academicYear: year, fromMonth: from, toMonth: toMonth || null, reason: reason.trim() });
      toast.success({ title: texts.requested });
      await refresh();
      onClose();
    } catch (error) {
      setErrors({ form: serverMessage(error) ?? String(error) });
    } finally {
      setBusy(false);
    }
  };

  const monthLabel = (m: { month: string; year: number }) => `${m.month} ${m.year}`;
  return (
    <form className="grid gap-4" onSubmit={submit} noValidate>
      <DialogHeader>
        <DialogTitle>{texts.requestTitle(student.name)}</DialogTitle>
        <DialogDescription>{texts.requestDescription}</DialogDescription>
      </DialogHeader>
      <Field label={texts.typeLabel} htmlFor="concession-type" error={errors.type}>
        <NativeSelect id="concession-type" value={typeId} onChange={(e) => setTypeId(e.target.value)}>
          <option value="">—</option>
          {active.map((t) => (
            <option key={t.id} value={t.id}>
              {t.name} ({t.description})
            </option>
          ))}
        </NativeSelect>
      </Field>
      <div className="grid gap-3 sm:grid-cols-3">
        <Field label={texts.sessionLabel} htmlFor="concession-session">
          <NativeSelect
            id="concession-session"
            value={year}
            onChange={(e) => {
              setYear(e.target.value);
              setFromMonth('');
              setToMonth('');
            }}
          >
            {(sessions.data ?? []).map((s) => (
              <option key={s.id} value={s.sessionName}>
                {s.sessionName}
              </option>
            ))}
          </NativeSelect>
        </Field>
        <Field label={texts.fromMonth} htmlFor="concession-from">
          <NativeSelect id="concession-from" value={from} onChange={(e) => setFromMonth(e.target.value)}>
            {months.map((m) => (
              <option key={m.key} value={m.key}>
                {monthLabel(m)}
              </option>
            ))}
          </NativeSelect>
        </Field>
        <Field label={texts.toMonth} htmlFor="concession-to" error={errors.toMonth}>
          <NativeSelect id="concession-to" value={toMonth} onChange={(e) => setToMonth(e.target.value)}>
            <option value="">{texts.untilSessionEnd}</option>
            {months.map((m) => (
              <option key={m.key} value={m.key}>
                {monthLabel(m)}
              </option>
            ))}
          </NativeSelect>
        </Field>
      </div>
      <Field label={texts.reasonLabel} htmlFor="concession-reason" error={errors.reason}>
        <Textarea id="concession-reason" value={reason} maxLength={500} onChange={(e) => setReason(e.target.value)} />
      </Field>
      {errors.form ? (
        <p role="alert" className="text-sm text-destructive">
          {errors.form}
        </p>
      ) : null}
      <DialogFooter>
        <Button type="button" variant="outline" onClick={onClose}>
          {texts.cancel}
        </Button>
        <Button type="submit" disabled={busy}>
          {busy ? texts.saving : texts.sendRequest}
        </Button>
      </DialogFooter>
    </form>
  );
}
