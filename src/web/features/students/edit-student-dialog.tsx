import { zodResolver } from '@hookform/resolvers/zod';
import { ExternalLinkIcon } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useForm, type Resolver } from 'react-hook-form';
import { Link } from 'react-router';
import { updateStudentSchema, type UpdateStudent } from '@/domain/students';
import { toast } from '@/web/components/toaster';
import { Button } from '@/web/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/web/components/ui/dialog';
import { Input } from '@/web/components/ui/input';
import { Field } from '@/web/components/ui/label';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/web/components/ui/tabs';
import { rupees } from '@/web/lib/format';
import { ApiError } from '@/web/lib/request';
import { serverMessage, firstError } from '@/web/lib/form-errors';
import { useUpdateStudent, type Student } from './api';
import { AcademicFields, BusAndReminderFields, ParentFields, PersonalFields, studentToForm, type StudentFormValues } from './student-fields';

type EditTab = 'academic' | 'personal' | 'parent' | 'results' | 'financial';

const EDIT_TABS: [EditTab, string][] = [
  ['academic', 'Academic'],
  ['personal', 'Personal'],
  ['parent', 'Parent'],
  ['results', 'Results'],
  ['financial', 'Financial'],
];

/** Which tab holds a field, so a failed save opens the tab with the problem. */
const TAB_OF: Partial<Record<keyof StudentFormValues, EditTab>> = {
  fatherName: 'personal',
  motherName: 'personal',
  dateOfBirth: 'personal',
  mobileNumber: 'personal',
  aadharNumber: 'personal',
  residence: 'personal',
  parentName: 'parent',
  parentPhone: 'parent',
  parentEmail: 'parent',
  parentWhatsApp: 'parent',
  monthlyBusFee: 'financial',
  enableSmsReminders: 'financial',
  enableWhatsappReminders: 'financial',
  reminderPreference: 'financial',
};

/** Edit Complete Student Details (operations §2): academic, personal, parent, results, financial. */
export function EditStudentDialog({
  student,
  open,
  onOpenChange,
  onSaved,
}: {
  student: Student;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onSaved: (s: Student) => void;
}) {
  const [tab, setTab] = useState<EditTab>('academic');
  const form = useForm<StudentFormValues, unknown, UpdateStudent>({
    resolver: zodResolver(updateStudentSchema) as unknown as Resolver<StudentFormValues, unknown, UpdateStudent>,
    defaultValues: studentToForm(student),
  });
  const update = useUpdateStudent();

  useEffect(() => {
    if (open) {
      form.reset(studentToForm(student));
      setTab('academic');
    }
  }, [open, student, form]);

  const onSubmit = form.handleSubmit(
    async () => {
      const values = form.getValues();
      try {
        const saved = await update.mutateAsync({ id: student.id, input: values });
        toast.success({ title: 'Success', description: `${saved.name}'s details were updated.` });
        onOpenChange(false);
        onSaved(saved);
      } catch (error) {
        if (error instanceof ApiError) {
          for (const [field, message] of Object.entries(error.fields)) {
            if (field in values) form.setError(field as keyof StudentFormValues, { message });
          }
        }
        const serverText = serverMessage(error);
        toast.error({ title: 'Error', description: serverText ?? 'Failed to update student' });
      }
    },
    (errors) => {
      const first = firstError(errors);
      if (!first) return;
      setTab(TAB_OF[first.field] ?? 'academic');
      toast.error({ title: 'Validation Error', description: first.message });
    },
  );

  const rollError = form.formState.errors.rollNumber?.message;

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-w-3xl">
        <DialogHeader>
          <DialogTitle>Edit Complete Student Details</DialogTitle>
          <DialogDescription>
            {student.name} · {student.class}-{student.section} · Roll No. {student.rollNumber}
          </DialogDescription>
        </DialogHeader>
        <form onSubmit={onSubmit} noValidate className="grid min-w-0 gap-4">
          <Tabs value={tab} onValueChange={(v) => setTab(v as EditTab)} className="min-w-0 sm:min-h-80">
            <TabsList className="grid w-full grid-cols-5">
              {EDIT_TABS.map(([value, label]) => (
                <TabsTrigger key={value} value={value} className="px-1 text-xs sm:px-3 sm:text-sm">
                  {label}
                </TabsTrigger>
              ))}
            </TabsList>
            {/* forceMount keeps every field registered, so hidden tabs are validated and saved too */}
            <TabsContent value="academic" forceMount hidden={tab !== 'academic'}>
              <AcademicFields
                form={form}
                prefix="edit"
                rollNumber={
                  <Field label="Roll Number *" htmlFor="edit-roll" error={rollError}>
                    <Input id="edit-roll" type="number" min={1} step={1} inputMode="numeric" aria-invalid={rollError ? true : undefined} {...form.register('rollNumber')} />
                  </Field>
                }
              />
            </TabsContent>
            <TabsContent value="personal" forceMount hidden={tab !== 'personal'}>
              <PersonalFields
                form={form}
                prefix="edit"
                aadhaarHint={student.aadharNumber ? 'The stored number is shown masked. Replace it with 12 digits to change it, or clear it to remove it.' : '12 digits'}
              />
            </TabsContent>
            <TabsContent value="parent" forceMount hidden={tab !== 'parent'}>
              <ParentFields form={form} prefix="edit" />
            </TabsContent>
            <TabsContent value="results" forceMount hidden={tab !== 'results'}>
              <div className="grid gap-3 rounded-lg border bg-muted/40 p-4 text-sm">
                <p>Marks, grades and marksheets for {student.name} are entered and printed on the Results page, class by class.</p>
                <Button asChild variant="outline" className="justify-self-start">
                  <Link to="/school/results">
                    <ExternalLinkIcon />
                    Open Results
                  </Link>
                </Button>
              </div>
            </TabsContent>
            <TabsContent value="financial" forceMount hidden={tab !== 'financial'} className="grid gap-4">
              <BusAndReminderFields form={form} prefix="edit" />
              <div className="grid gap-2 rounded-lg border bg-muted/40 p-4 text-sm">
                <p className="font-medium">
                  Class fees for {student.class} (from the fee structure)
                </p>
                {student.monthlyFee === null && student.admissionFee === null ? (
                  <p className="text-muted-foreground">No fee structure is set up for this class yet. Add one in the Fee Structure tab.</p>
                ) : (
                  <dl className="grid grid-cols-2 gap-2">
                    <dt className="text-muted-foreground">Monthly tuition fee</dt>
                    <dd className="font-medium">{rupees(student.monthlyFee)}</dd>
                    <dt className="text-muted-foreground">Admission (yearly) fee</dt>
                    <dd className="font-medium">{rupees(student.admissionFee)}</dd>
                  </dl>
                )}
              </div>
            </TabsContent>
          </Tabs>
          <DialogFooter>
            <Button variant="outline" onClick={() => onOpenChange(false)}>
              Cancel
            </Button>
            <Button type="submit" disabled={update.isPending}>
              {update.isPending ? 'Saving...' : 'Save Changes'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
