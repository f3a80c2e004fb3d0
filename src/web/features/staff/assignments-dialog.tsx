import { PlusIcon, Trash2Icon } from 'lucide-react';
import { useEffect, useState, type FormEvent } from 'react';
import { CLASSES, SECTIONS } from '@/domain/classes';
import { toast } from '@/web/components/toaster';
import { Button } from '@/web/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/web/components/ui/dialog';
import { Input, NativeSelect } from '@/web/components/ui/input';
import { refusalMessage } from '@/web/lib/form-errors';
import { useSaveAssignments, type StaffMember, type TeacherAssignment } from './api';
import { STAFF_TEXTS } from './texts';

interface Row {
  className: string;
  section: string;
  subjects: string;
}

/** "Mathematics, Science" → ["Mathematics", "Science"], without blanks or repeats. */
export function splitList(text: string): string[] {
  return [...new Set(text.split(/[\n,]/).map((s) => s.trim()).filter(Boolean))];
}

export function toAssignments(rows: readonly Row[]): TeacherAssignment[] {
  return rows.filter((r) => r.className).map((r) => ({ className: r.className, section: r.section || null, subjects: splitList(r.subjects) }));
}

const toRows = (member: StaffMember | null): Row[] =>
  member?.assignments.map((a) => ({ className: a.className, section: a.section ?? '', subjects: a.subjects.join(', ') })) ?? [];

/** A teacher's classes/sections and subjects (issue 15 item 1): what their results screens show. */
export function AssignmentsDialog({ member, onClose }: { member: StaffMember | null; onClose: () => void }) {
  const [rows, setRows] = useState<Row[]>([]);
  const save = useSaveAssignments();

  useEffect(() => setRows(toRows(member)), [member]);

  const set = (i: number, patch: Partial<Row>) => setRows((rs) => rs.map((r, j) => (j === i ? { ...r, ...patch } : r)));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!member) return;
    save.mutate(
      { id: member.id, assignments: toAssignments(rows) },
      {
        onSuccess: () => {
          toast.success({ title: STAFF_TEXTS.assignments, description: STAFF_TEXTS.assignmentsSaved });
          onClose();
        },
        onError: (error) => toast.error({ title: STAFF_TEXTS.assignments, description: refusalMessage(error, STAFF_TEXTS.updateFailed) }),
      },
    );
  };

  return (
    <Dialog open={member !== null} onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="max-w-xl">
        <DialogHeader>
          <DialogTitle>{member ? STAFF_TEXTS.assignmentsTitle(member.name) : ''}</DialogTitle>
          <DialogDescription>{STAFF_TEXTS.assignmentsDescription}</DialogDescription>
        </DialogHeader>
        <form onSubmit={submit} noValidate className="grid gap-3">
          {rows.length === 0 ? <p className="text-sm text-muted-foreground">{STAFF_TEXTS.noAssignments}</p> : null}
          {rows.map((row, i) => (
            <fieldset key={i} className="grid grid-cols-[minmax(0,1fr)_5.5rem_auto] gap-2 rounded-lg border p-2 sm:grid-cols-[10rem_5.5rem_minmax(0,1fr)_auto]">
              <legend className="sr-only">{STAFF_TEXTS.assignmentRow(i + 1)}</legend>
              <NativeSelect aria-label={STAFF_TEXTS.classLabel} value={row.className} onChange={(e) => set(i, { className: e.target.value })}>
                <option value="">{STAFF_TEXTS.classLabel}</option>
                {CLASSES.map((c) => (
                  <option key={c} value={c}>
                    {c}
                  </option>
                ))}
              </NativeSelect>
              <NativeSelect aria-label={STAFF_TEXTS.sectionLabel} value={row.section} onChange={(e) => set(i, { section: e.target.value })}>
                <option value="">{STAFF_TEXTS.allSections}</option>
                {SECTIONS.map((s) => (
                  <option key={s} value={s}>
                    {s}
                  </option>
                ))}
              </NativeSelect>
              <Input
                aria-label={STAFF_TEXTS.subjectsLabel}
                placeholder={STAFF_TEXTS.subjectsHint}
                className="col-span-2 row-start-2 sm:col-span-1 sm:row-start-auto"
                value={row.subjects}
                onChange={(e) => set(i, { subjects: e.target.value })}
              />
              <Button
                type="button"
                variant="ghost"
                size="icon"
                className="col-start-3 row-start-1 sm:col-start-auto"
                aria-label={STAFF_TEXTS.removeAssignment}
                onClick={() => setRows((rs) => rs.filter((_, j) => j !== i))}
              >
                <Trash2Icon />
              </Button>
            </fieldset>
          ))}
          <Button type="button" variant="outline" size="sm" className="justify-self-start" onClick={() => setRows((rs) => [...rs, { className: '', section: '', subjects: '' }])}>
            <PlusIcon />
            {STAFF_TEXTS.addAssignment}
          </Button>
          <DialogFooter>
            <Button type="button" variant="outline" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" disabled={save.isPending}>
              {STAFF_TEXTS.saveAssignments}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
