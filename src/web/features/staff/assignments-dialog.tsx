import { useEffect, useState, type FormEvent } from 'react';
import { toast } from '@/web/components/toaster';
import { Button } from '@/web/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/web/components/ui/dialog';
import { Textarea } from '@/web/components/ui/input';
import { Field } from '@/web/components/ui/label';
import { refusalMessage } from '@/web/lib/form-errors';
import { useUpdateStaff, type StaffMember } from './api';
import { STAFF_TEXTS } from './texts';

/** "5-A, 6-B" or one per line → ["5-A", "6-B"], without blanks or repeats. */
export function splitList(text: string): string[] {
  return [...new Set(text.split(/[\n,]/).map((s) => s.trim()).filter(Boolean))];
}

/** A teacher's classes/sections and subjects (issue 15 item 1): what their results screens show. */
export function AssignmentsDialog({ member, onClose }: { member: StaffMember | null; onClose: () => void }) {
  const [classes, setClasses] = useState('');
  const [subjects, setSubjects] = useState('');
  const update = useUpdateStaff();

  useEffect(() => {
    setClasses(member?.assignments?.classes.join(', ') ?? '');
    setSubjects(member?.assignments?.subjects.join(', ') ?? '');
  }, [member]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!member) return;
    update.mutate(
      { id: member.id, assignments: { classes: splitList(classes), subjects: splitList(subjects) } },
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
      <DialogContent className="max-w-md">
        <DialogHeader>
          <DialogTitle>{member ? STAFF_TEXTS.assignmentsTitle(member.name) : ''}</DialogTitle>
          <DialogDescription>{STAFF_TEXTS.assignmentsDescription}</DialogDescription>
        </DialogHeader>
        <form onSubmit={submit} noValidate className="grid gap-4">
          <Field label={STAFF_TEXTS.classesLabel} htmlFor="assign-classes" hint={STAFF_TEXTS.classesHint}>
            <Textarea id="assign-classes" rows={2} value={classes} onChange={(e) => setClasses(e.target.value)} />
          </Field>
          <Field label={STAFF_TEXTS.subjectsLabel} htmlFor="assign-subjects" hint={STAFF_TEXTS.subjectsHint}>
            <Textarea id="assign-subjects" rows={2} value={subjects} onChange={(e) => setSubjects(e.target.value)} />
          </Field>
          <DialogFooter>
            <Button type="button" variant="outline" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" disabled={update.isPending}>
              {STAFF_TEXTS.saveAssignments}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
