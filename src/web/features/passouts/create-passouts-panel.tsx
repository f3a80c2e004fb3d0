import { useQuery } from '@tanstack/react-query';
import { GraduationCapIcon } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { toast } from '@/web/components/toaster';
import { Button } from '@/web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/web/components/ui/card';
import { ConfirmDialog } from '@/web/components/ui/confirm-dialog';
import { Input, NativeSelect } from '@/web/components/ui/input';
import { Field } from '@/web/components/ui/label';
import { rupees } from '@/web/lib/format';
import { serverMessage } from '@/web/lib/form-errors';
import { passoutClassesQuery, useCreatePassouts } from './api';

/**
 * Create Passouts from Class (operations §2): a class and a graduation year; the button waits for
 * both (§5). Every active student of the class moves to passouts with what they owe.
 */
export function CreatePassoutsPanel() {
  const classes = useQuery(passoutClassesQuery());
  const create = useCreatePassouts();
  const [className, setClassName] = useState('');
  const [year, setYear] = useState('');
  const [confirming, setConfirming] = useState(false);
  const chosen = classes.data?.find((c) => c.className === className);
  const ready = Boolean(className && year.trim());

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (ready) setConfirming(true);
  };

  const doCreate = () =>
    create.mutate(
      { className, graduationYear: year.trim() },
      {
        onSuccess: (answer) => {
          toast.success({
            title: 'Passouts Created Successfully',
            description: `${answer.count} ${answer.count === 1 ? 'student' : 'students'} of ${answer.className} moved to passouts (graduation year ${answer.graduationYear}); outstanding ${rupees(answer.totalOutstanding)}.`,
          });
          setClassName('');
          setYear('');
        },
        onError: (error) =>
          toast.error({
            title: 'Error Creating Passouts',
            description: serverMessage(error) ?? 'Failed to create passouts from class',
          }),
      },
    );

  const available = classes.data ?? [];
  return (
    <Card>
      <CardHeader className="pb-3">
        <CardTitle className="flex items-center gap-2 text-base">
          <GraduationCapIcon className="size-5 text-primary" />
          Create Passouts from Class
        </CardTitle>
        <CardDescription>Graduate a whole class at once, for example Class 12 at the end of the year.</CardDescription>
      </CardHeader>
      <CardContent>
        {classes.isSuccess && available.length === 0 ? (
          <p className="text-sm text-muted-foreground">No graduation classes available (promote students first)</p>
        ) : (
          <form onSubmit={submit} noValidate className="grid gap-3">
            <div className="grid gap-3 sm:grid-cols-[minmax(0,1fr)_12rem_auto] sm:items-end">
              <Field label="Class" htmlFor="passout-class">
                <NativeSelect id="passout-class" value={className} onChange={(e) => setClassName(e.target.value)} disabled={classes.isPending}>
                  <option value="">{classes.isPending ? 'Loading...' : 'Select class'}</option>
                  {available.map((c) => (
                    <option key={c.className} value={c.className}>
                      {c.className} ({c.count} {c.count === 1 ? 'student' : 'students'})
                    </option>
                  ))}
                </NativeSelect>
              </Field>
              <Field label="Graduation Year" htmlFor="passout-year">
                <Input id="passout-year" inputMode="numeric" maxLength={4} placeholder="e.g. 2025" value={year} onChange={(e) => setYear(e.target.value.replace(/\D/g, ''))} />
              </Field>
              <Button type="submit" disabled={!ready || create.isPending}>
                {create.isPending ? 'Creating...' : 'Create Passouts'}
              </Button>
            </div>
            {chosen ? (
              <p className="text-sm text-muted-foreground">
                All {chosen.count} {chosen.count === 1 ? 'student' : 'students'} of {chosen.className} will move to passouts
                {year.trim() ? ` with graduation year ${year.trim()}` : ''} and be permanently removed from the active student list. What they still owe stays
                collectable.
              </p>
            ) : null}
          </form>
        )}
      </CardContent>
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title="Create Passouts"
        description={`Move all ${chosen?.count ?? 0} students of ${className} to passouts with graduation year ${year.trim()}? They are removed from the active student list. This action cannot be undone.`}
        confirmLabel="Create Passouts"
        destructive
        onConfirm={doCreate}
      />
    </Card>
  );
}
