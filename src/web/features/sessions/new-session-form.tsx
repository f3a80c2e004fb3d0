import { zodResolver } from '@hookform/resolvers/zod';
import { PlusIcon } from 'lucide-react';
import { useEffect } from 'react';
import { Controller, useForm, type FieldErrors, type Resolver } from 'react-hook-form';
import type { z } from 'zod';
import { createSessionSchema, indiaDate, SESSION_NAME_MESSAGE, SESSION_OVERLAP_START } from '@/domain/sessions';
import { toast } from '@/web/components/toaster';
import { Button } from '@/web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/web/components/ui/card';
import { Checkbox } from '@/web/components/ui/checkbox';
import { Input } from '@/web/components/ui/input';
import { Field, Label } from '@/web/components/ui/label';
import { ApiError } from '@/web/lib/request';
import { serverMessage } from '@/web/lib/form-errors';
import { useCreateSession, type AcademicSession } from './api';
import { suggestedSession, type SessionFormValues } from './suggest-session';
import { sessionTexts } from './texts';


/** The toast title of operations §5 for each session rule. */
function titleFor(message: string, otherwise = 'Validation Error'): string {
  if (message.startsWith('Academic session must be at least 12 months')) return 'Invalid Session Duration';
  if (message === 'End date must be after start date.') return 'Invalid Date Range';
  if (message === SESSION_NAME_MESSAGE) return 'Invalid Session Name';
  if (message.startsWith(SESSION_OVERLAP_START)) return 'Overlapping Session';
  return otherwise;
}

function firstMessage(errors: FieldErrors<SessionFormValues>): string | null {
  for (const key of ['sessionName', 'startDate', 'endDate'] as const) {
    const message = errors[key]?.message;
    if (message) return message;
  }
  return null;
}

/** The New Session form with the rules of operations §5 (at least 12 months, end after start). */
/** `latest`: the school's latest session, which the suggestion follows (next year's may exist already). */
export function NewSessionForm({ active, latest }: { active: AcademicSession | null; latest: AcademicSession | null }) {
  const create = useCreateSession();
  const isLater = (startDate: string) => Boolean(active && startDate > active.startDate);
  const form = useForm<SessionFormValues, unknown, z.output<typeof createSessionSchema>>({
    resolver: zodResolver(createSessionSchema) as unknown as Resolver<SessionFormValues, unknown, z.output<typeof createSessionSchema>>,
    defaultValues: suggestedSession(latest ?? active, indiaDate(new Date())),
  });

  // Once the active session has loaded, suggest the one after it (unless the person has started typing).
  useEffect(() => {
    if (!form.formState.isDirty) form.reset(suggestedSession(latest ?? active, indiaDate(new Date())));
  }, [latest, active, form]);

  const onSubmit = form.handleSubmit(
    async (values) => {
      try {
        // a later session is never made active here: students move into it when it is started
        const created = await create.mutateAsync({ ...values, isActive: values.isActive && !isLater(values.startDate) });
        toast.success({ title: 'Success', description: 'Academic session created successfully' });
        form.reset(suggestedSession(latest && latest.startDate > created.startDate ? latest : created, indiaDate(new Date())));
      } catch (error) {
        const text = serverMessage(error) ?? 'Failed to create session';
        toast.error({ title: error instanceof ApiError && error.status === 400 ? titleFor(text) : titleFor(text, 'Error'), description: text });
      }
    },
    (errors) => {
      const message = firstMessage(errors);
      if (message) toast.error({ title: titleFor(message), description: message });
    },
  );

  const errors = form.formState.errors;
  const later = isLater(form.watch('startDate'));
  return (
    <Card>
      <CardHeader>
        <CardTitle>New Session</CardTitle>
        <CardDescription>At least 12 months, e.g. 1 April to 31 March.</CardDescription>
      </CardHeader>
      <CardContent>
        <form onSubmit={onSubmit} noValidate className="grid gap-4">
          <Field label="Session Name" htmlFor="session-name" error={errors.sessionName?.message}>
            <Input id="session-name" placeholder="2025-2026" autoComplete="off" {...form.register('sessionName')} />
          </Field>
          <div className="grid items-start gap-4 sm:grid-cols-2">
            <Field label="Start Date" htmlFor="session-start" error={errors.startDate?.message}>
              <Input id="session-start" type="date" {...form.register('startDate')} />
            </Field>
            <Field label="End Date" htmlFor="session-end" error={errors.endDate?.message}>
              <Input id="session-end" type="date" {...form.register('endDate')} />
            </Field>
          </div>
          {later && active ? (
            <p className="text-sm text-muted-foreground">{sessionTexts.laterNotActive(active.sessionName)}</p>
          ) : (
            <Controller
              control={form.control}
              name="isActive"
              render={({ field }) => (
                <div className="flex items-center gap-2">
                  <Checkbox id="session-active" checked={field.value} onCheckedChange={(v) => field.onChange(v === true)} />
                  <Label htmlFor="session-active" className="font-normal">
                    Make this the active session
                  </Label>
                </div>
              )}
            />
          )}
          <Button type="submit" disabled={create.isPending} className="justify-self-start">
            <PlusIcon />
            {create.isPending ? 'Creating...' : 'Create Session'}
          </Button>
        </form>
      </CardContent>
    </Card>
  );
}
