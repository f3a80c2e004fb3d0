import { zodResolver } from '@hookform/resolvers/zod';
import { SchoolIcon } from 'lucide-react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { schoolInfoSchema, type SchoolInfoInput } from '@/domain/auth';
import { BOARD_LABELS, BOARDS } from '@/domain/boards';
import { STATE_NAMES } from '@/domain/invoices';
import { toast } from '@/web/components/toaster';
import { Button } from '@/web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/web/components/ui/card';
import { Input, NativeSelect, Textarea } from '@/web/components/ui/input';
import { Field } from '@/web/components/ui/label';
import { refusalMessage, serverFieldErrors } from '@/web/lib/form-errors';
import type { School } from '@/web/lib/me-api';
import { useUpdateSchool } from './api';
import { SchoolLogoField } from './school-logo-field';

const FIELDS = ['name', 'phone', 'schoolCode', 'address', 'board', 'state', 'gstin'] as const;
const valuesOf = (school: School): SchoolInfoInput => ({
  name: school.name,
  phone: school.phone,
  schoolCode: school.schoolCode ?? '',
  address: school.address,
  board: school.board,
  state: (school.state ?? null) as SchoolInfoInput['state'],
  gstin: school.gstin ?? '',
});

export function SchoolInfoCard({ school }: { school: School }) {
  const mutation = useUpdateSchool();
  const form = useForm<SchoolInfoInput, unknown, z.output<typeof schoolInfoSchema>>({
    resolver: zodResolver(schoolInfoSchema),
    defaultValues: valuesOf(school),
  });
  const errors = form.formState.errors;
  const code = form.register('schoolCode');

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      const answer = await mutation.mutateAsync(values);
      form.reset(valuesOf(answer.school));
      toast.success({ title: 'School Information Updated', description: 'School details have been successfully updated.' });
    } catch (error) {
      for (const [name, message] of serverFieldErrors(error, FIELDS)) form.setError(name, { message });
      toast.error({ title: 'Update Failed', description: refusalMessage(error, 'Unable to update school information. Please try again.') });
    }
  });

  return (
    <Card>
      <CardHeader>
        <CardTitle level={2} className="flex items-center gap-2">
          <SchoolIcon className="size-5 text-primary" />
          School Information
        </CardTitle>
        <CardDescription>Shown on receipts, marksheets and reports.</CardDescription>
      </CardHeader>
      <CardContent>
        <SchoolLogoField />
        <form onSubmit={onSubmit} className="grid gap-4 sm:grid-cols-2" noValidate aria-label="School Information">
          <Field label="School name" htmlFor="schoolName" error={errors.name?.message} className="sm:col-span-2">
            <Input id="schoolName" autoComplete="organization" aria-invalid={Boolean(errors.name)} {...form.register('name')} />
          </Field>
          <Field label="Phone number" htmlFor="schoolPhone" error={errors.phone?.message} className="content-start">
            <Input id="schoolPhone" type="tel" inputMode="tel" autoComplete="tel" placeholder="98765 43210" aria-invalid={Boolean(errors.phone)} {...form.register('phone')} />
          </Field>
          <Field
            label="School code"
            htmlFor="schoolCode"
            error={errors.schoolCode?.message}
            hint="Used on marksheets and official documents. 3-10 characters, uppercase letters and numbers only."
            className="content-start"
          >
            <Input
              id="schoolCode"
              maxLength={10}
              autoCapitalize="characters"
              spellCheck={false}
              placeholder="GVPS01"
              aria-invalid={Boolean(errors.schoolCode)}
              {...code}
              onChange={(event) => {
                // operations §5: the code is uppercased as it is typed
                event.target.value = event.target.value.toUpperCase();
                return code.onChange(event);
              }}
            />
          </Field>
          <Field
            label="Board"
            htmlFor="schoolBoard"
            error={errors.board?.message}
            hint="Decides the subjects each class starts with in Results. Classes that already have subjects keep them."
            className="content-start sm:col-span-2"
          >
            <NativeSelect id="schoolBoard" className="sm:max-w-xs" {...form.register('board')}>
              {BOARDS.map((board) => (
                <option key={board} value={board}>
                  {BOARD_LABELS[board]}
                </option>
              ))}
            </NativeSelect>
          </Field>
          <Field label="State" htmlFor="schoolState" error={errors.state?.message} hint="The place of supply on your GST tax invoices." className="content-start">
            <NativeSelect id="schoolState" {...form.register('state', { setValueAs: (v: string | null) => (v ? v : null) })}>
              <option value="">Choose a state</option>
              {STATE_NAMES.map((state) => (
                <option key={state} value={state}>
                  {state}
                </option>
              ))}
            </NativeSelect>
          </Field>
          <Field label="GSTIN (optional)" htmlFor="schoolGstin" error={errors.gstin?.message} hint="Printed on your tax invoices, so you can claim input credit." className="content-start">
            <Input id="schoolGstin" maxLength={15} autoCapitalize="characters" spellCheck={false} placeholder="01ABCDE1234F1Z5" aria-invalid={Boolean(errors.gstin)} {...form.register('gstin')} />
          </Field>
          <Field label="Address" htmlFor="schoolAddress" error={errors.address?.message} className="sm:col-span-2">
            <Textarea id="schoolAddress" rows={3} autoComplete="street-address" {...form.register('address')} />
          </Field>
          <Button type="submit" disabled={mutation.isPending} className="w-full sm:col-span-2 sm:w-auto sm:justify-self-start">
            {mutation.isPending ? 'Updating...' : 'Update School Information'}
          </Button>
        </form>
      </CardContent>
    </Card>
  );
}
