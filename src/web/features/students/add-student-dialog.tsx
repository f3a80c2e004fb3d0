import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery } from '@tanstack/react-query';
import { SparklesIcon } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useForm, type Resolver } from 'react-hook-form';
import { Link } from 'react-router';
import { indiaDate } from '@/domain/sessions';
import { createStudentSchema, type CreateStudent } from '@/domain/students';
import { toast } from '@/web/components/toaster';
import { Alert, AlertDescription, AlertTitle } from '@/web/components/ui/alert';
import { Button } from '@/web/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/web/components/ui/dialog';
import { Input } from '@/web/components/ui/input';
import { Field } from '@/web/components/ui/label';
import { ApiError } from '@/web/lib/request';
import { useClientId } from '@/web/lib/use-client-id';
import { serverMessage, toastFirstError } from '@/web/lib/form-errors';
import { nextRollNumberQuery, useCreateStudent, type Student } from './api';
import { AcademicFields, BusAndReminderFields, emptyStudentForm, ParentFields, PersonalFields, type StudentFormValues } from './student-fields';
import { SUBSCRIPTION_PATH } from '@/web/lib/plans-api';

// the school's day is India's, whatever the browser's time zone
const today = () => indiaDate(new Date());

/**
 * Add New Student (operations §2, §5). The roll number is suggested by the server whenever class
 * and section are chosen and shown read-only; the server allocates the final one (ruling 10).
 */
export function AddStudentDialog({ open, onOpenChange, onAdded }: { open: boolean; onOpenChange: (open: boolean) => void; onAdded: (s: Student) => void }) {
  const [limitMessage, setLimitMessage] = useState<string | null>(null);
  const form = useForm<StudentFormValues, unknown, CreateStudent>({
    resolver: zodResolver(createStudentSchema) as unknown as Resolver<StudentFormValues, unknown, CreateStudent>,
    defaultValues: emptyStudentForm(today()),
  });
  const create = useCreateStudent();
  // a second press of Add Student, or a retry after a lost answer, sends the same key: one student (ruling 5)
  const clientId = useClientId();
  const [className, section] = form.watch(['class', 'section']);
  const roll = useQuery(nextRollNumberQuery(className, section));
  const suggested = className && section && roll.data ? roll.data.nextRollNumber : null;

  useEffect(() => {
    form.setValue('rollNumber', suggested === null ? '' : String(suggested));
  }, [suggested, form]);

  // fees start in the month of admission unless the clerk chose another month
  const enrollmentDate = form.watch('enrollmentDate');
  useEffect(() => {
    if (/^\d{4}-\d{2}/.test(enrollmentDate) && !form.getFieldState('feesFromMonth').isDirty) form.setValue('feesFromMonth', enrollmentDate.slice(0, 7));
  }, [enrollmentDate, form]);

  useEffect(() => {
    if (!open) {
      form.reset(emptyStudentForm(today()));
      setLimitMessage(null);
    }
  }, [open, form]);

  const onSubmit = form.handleSubmit(
    async () => {
      if (suggested === null) {
        toast.error({ title: 'Validation Error', description: 'Unable to determine roll number. Please select a class first.' });
        return;
      }
      setLimitMessage(null);
      const values = form.getValues();
      // the key follows what the clerk typed, not the suggested roll number: the server allocates the
      // number, and a first press that was saved moves the suggestion on before the second is sent
      const { rollNumber: _suggested, ...typed } = values;
      try {
        const student = await clientId.send(typed, ({ clientId: key }) => create.mutateAsync({ ...values, rollNumber: String(suggested), clientId: key }));
        toast.success({ title: 'Success', description: `${student.name} added to ${student.class}-${student.section} with roll number ${student.rollNumber}.` });
        onOpenChange(false);
        onAdded(student);
      } catch (error) {
        if (error instanceof ApiError && error.status === 403 && error.body.upgradeRequired) {
          setLimitMessage(error.message);
          toast.error({ title: 'Cannot Add Student', description: error.message });
          return;
        }
        if (error instanceof ApiError) {
          for (const [field, message] of Object.entries(error.fields)) {
            if (field in values) form.setError(field as keyof StudentFormValues, { message });
          }
        }
        const serverText = serverMessage(error);
        const status = error instanceof ApiError ? error.status : 0;
        toast.error({ title: 'Error', description: serverText ?? (status ? `Failed to create student (Status: ${status})` : (error as Error).message) });
      }
    },
    toastFirstError,
  );

  const rollText = !className
    ? 'Select a class'
    : roll.isFetching
      ? 'Finding the next roll number...'
      : roll.isError
        ? 'Unable to determine roll number'
        : String(suggested ?? '');

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-w-3xl">
        <DialogHeader>
          <DialogTitle>Add New Student</DialogTitle>
          <DialogDescription>Fields marked * are required. The roll number is the next free one in the chosen class and section.</DialogDescription>
        </DialogHeader>
        <form onSubmit={onSubmit} noValidate className="grid gap-6">
          {limitMessage ? (
            <Alert variant="warning">
              <AlertTitle>Cannot Add Student</AlertTitle>
              <AlertDescription className="grid gap-2">
                <p>{limitMessage}</p>
                <Button asChild size="sm" className="justify-self-start">
                  <Link to={SUBSCRIPTION_PATH}>
                    <SparklesIcon />
                    Upgrade Plan
                  </Link>
                </Button>
              </AlertDescription>
            </Alert>
          ) : null}
          <FormSection title="Academic">
            <AcademicFields
              form={form}
              prefix="add"
              rollNumber={
                <Field label="Roll Number" htmlFor="add-roll" hint="Suggested automatically">
                  <Input id="add-roll" readOnly value={rollText} aria-readonly tabIndex={-1} />
                </Field>
              }
            />
          </FormSection>
          <FormSection title="Personal">
            <PersonalFields form={form} prefix="add" />
          </FormSection>
          <FormSection title="Parent / Guardian">
            <ParentFields form={form} prefix="add" />
          </FormSection>
          <FormSection title="Bus Fee and Reminders">
            <BusAndReminderFields form={form} prefix="add" />
          </FormSection>
          <DialogFooter>
            <Button variant="outline" onClick={() => onOpenChange(false)}>
              Cancel
            </Button>
            <Button type="submit" disabled={create.isPending}>
              {create.isPending ? 'Adding Student...' : 'Add Student'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}

export function FormSection({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <fieldset className="grid gap-3">
      <legend className="mb-3 text-sm font-semibold text-muted-foreground">{title}</legend>
      {children}
    </fieldset>
  );
}
