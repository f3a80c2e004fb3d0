import { EyeIcon, EyeOffIcon, PencilIcon, Trash2Icon } from 'lucide-react';
import { useState, type ReactNode } from 'react';
import { StudentFeeActions } from '@/web/components/fees/student-fee-actions';
import { toast } from '@/web/components/toaster';
import { Badge } from '@/web/components/ui/badge';
import { Button } from '@/web/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/web/components/ui/card';
import { ConfirmDialog } from '@/web/components/ui/confirm-dialog';
import { formatDate, rupees } from '@/web/lib/format';
import { serverMessage } from '@/web/lib/form-errors';
import { useDeleteStudent, useRevealAadhaar, type Student } from './api';
import { EditStudentDialog } from './edit-student-dialog';
import { monthLabel } from '@/domain/ledger';
import { studentTexts } from './texts';

const PREFERENCE_LABEL = { sms: 'SMS', whatsapp: 'WhatsApp', both: 'Both' } as const;

/** "123412341234" → "1234 1234 1234" */
const groupAadhaar = (digits: string) => digits.replace(/\s/g, '').replace(/(\d{4})(?=\d)/g, '$1 ');

/**
 * The full read-only record of one student with Edit Student, the fee ledger's Record Fee Payment,
 * Promote Student and Discharge, and Delete Student.
 */
export function StudentRecord({ student, onSaved, onDeleted }: { student: Student; onSaved: (s: Student) => void; onDeleted: () => void }) {
  const [editing, setEditing] = useState(false);
  const [confirmingDelete, setConfirmingDelete] = useState(false);
  const [aadhaar, setAadhaar] = useState<string | null>(null);
  const remove = useDeleteStudent();
  const reveal = useRevealAadhaar();

  // through the promise, not mutate's own callbacks: the lists refreshed after the delete no longer
  // hold this student, so this record may be gone before they run, and TanStack Query drops the
  // callbacks of a mutate whose component has unmounted (the toast went missing once answers came quicker)
  const doDelete = () =>
    remove.mutateAsync(student.id).then(
      () => {
        toast.success({ title: 'Student Deleted', description: 'Student has been successfully deleted from the system.' });
        onDeleted();
      },
      (error: unknown) =>
        toast.error({
          title: 'Delete Failed',
          description: serverMessage(error) ?? 'Failed to delete student. Please try again.',
        }),
    );

  const doReveal = () =>
    reveal.mutate(student.id, {
      onSuccess: (answer) => setAadhaar(answer.aadharNumber),
      onError: (error) => toast.error({ title: 'Error', description: error.message }),
    });

  return (
    <Card>
      <CardHeader className="gap-3 sm:flex-row sm:items-start sm:justify-between">
        <div className="grid gap-1">
          <CardTitle className="text-xl">{student.name}</CardTitle>
          <div className="flex flex-wrap items-center gap-1.5 text-sm text-muted-foreground">
            <span>
              {student.class}-{student.section} · Roll No. {student.rollNumber}
            </span>
            {student.status !== 'active' ? <Badge variant="secondary">{student.status}</Badge> : null}
          </div>
        </div>
        <div className="flex flex-wrap gap-2">
          <Button variant="outline" onClick={() => setEditing(true)}>
            <PencilIcon />
            Edit Student
          </Button>
          <Button variant="destructive" onClick={() => setConfirmingDelete(true)} disabled={remove.isPending}>
            <Trash2Icon />
            {remove.isPending ? 'Deleting...' : 'Delete Student'}
          </Button>
        </div>
      </CardHeader>
      {student.status === 'active' ? (
        <div role="group" aria-label="Fees and promotion" className="mx-5 mb-5 flex flex-wrap gap-2 border-y py-3 sm:mx-6">
          <StudentFeeActions
            student={student}
            onPromoted={(answer) => onSaved({ ...student, class: answer.student.className, rollNumber: answer.student.rollNumber, sessionId: answer.student.sessionId })}
            onDischarged={onDeleted}
          />
        </div>
      ) : null}
      <CardContent className="grid gap-5 md:grid-cols-2 xl:grid-cols-4">
        <Group title="Academic">
          <Item label="Class">{student.class}</Item>
          <Item label="Section">{student.section}</Item>
          <Item label="Roll Number">{student.rollNumber}</Item>
          <Item label="Admission Number">{student.admissionNumber}</Item>
          <Item label="Enrollment Date">{student.enrollmentDate ? formatDate(student.enrollmentDate) : null}</Item>
          <Item label={studentTexts.feesFrom}>{student.feesFromMonth ? monthLabel(student.feesFromMonth) : studentTexts.feesFromSession}</Item>
        </Group>
        <Group title="Personal">
          <Item label="Date of Birth">{student.dateOfBirth ? formatDate(student.dateOfBirth) : null}</Item>
          <Item label="Father's Name">{student.fatherName}</Item>
          <Item label="Mother's Name">{student.motherName}</Item>
          <Item label="Mobile Number">{student.mobileNumber}</Item>
          <Item label="Aadhar Number">
            {student.aadharNumber ? (
              <span className="flex flex-wrap items-center gap-2">
                <span className="font-mono">{aadhaar ? groupAadhaar(aadhaar) : student.aadharNumber}</span>
                {aadhaar ? (
                  <Button variant="link" size="sm" className="h-auto p-0" onClick={() => setAadhaar(null)}>
                    <EyeOffIcon />
                    Hide
                  </Button>
                ) : (
                  <Button variant="link" size="sm" className="h-auto p-0" onClick={doReveal} disabled={reveal.isPending}>
                    <EyeIcon />
                    {reveal.isPending ? 'Revealing...' : 'Reveal'}
                  </Button>
                )}
              </span>
            ) : null}
          </Item>
          <Item label="Residence">{student.residence}</Item>
        </Group>
        <Group title="Parent / Guardian">
          <Item label="Parent Name">{student.parentName}</Item>
          <Item label="Parent Phone">{student.parentPhone}</Item>
          <Item label="Parent Email">{student.parentEmail}</Item>
          <Item label="Parent WhatsApp">{student.parentWhatsApp}</Item>
        </Group>
        <Group title="Fees and Reminders">
          <Item label="Monthly Bus Fee">{rupees(student.monthlyBusFee)}</Item>
          <Item label="Monthly Tuition (class)">{student.monthlyFee === null ? 'No fee structure' : rupees(student.monthlyFee)}</Item>
          <Item label="Admission Fee (class)">{student.admissionFee === null ? 'No fee structure' : rupees(student.admissionFee)}</Item>
          <Item label="SMS Reminders">{student.enableSmsReminders ? 'On' : 'Off'}</Item>
          <Item label="WhatsApp Reminders">{student.enableWhatsappReminders ? 'On' : 'Off'}</Item>
          <Item label="Reminder Preference">{PREFERENCE_LABEL[student.reminderPreference]}</Item>
        </Group>
      </CardContent>
      <EditStudentDialog student={student} open={editing} onOpenChange={setEditing} onSaved={onSaved} />
      <ConfirmDialog
        open={confirmingDelete}
        onOpenChange={setConfirmingDelete}
        title="Delete Student"
        description="Are you sure you want to delete this student? This action cannot be undone."
        confirmLabel="Delete Student"
        destructive
        onConfirm={doDelete}
      />
    </Card>
  );
}

function Group({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="grid content-start gap-2">
      <h4 className="text-xs font-semibold uppercase tracking-wide text-muted-foreground">{title}</h4>
      <dl className="grid gap-2">{children}</dl>
    </div>
  );
}

function Item({ label, children }: { label: string; children: ReactNode }) {
  const empty = children === null || children === undefined || children === '';
  return (
    <div className="grid grid-cols-[9.5rem_1fr] gap-2 text-sm md:grid-cols-1 md:gap-0.5">
      <dt className="text-muted-foreground">{label}</dt>
      <dd className="min-w-0 break-words font-medium">{empty ? <span className="font-normal text-muted-foreground">—</span> : children}</dd>
    </div>
  );
}
