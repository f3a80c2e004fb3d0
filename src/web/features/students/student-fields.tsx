import type { ReactNode } from 'react';
import { Controller, type UseFormReturn } from 'react-hook-form';
import { CLASSES, SECTIONS } from '@/domain/classes';
import { AADHAAR_INPUT_MAX, REMINDER_PREFERENCES, type ReminderPreference } from '@/domain/students';
import { Checkbox } from '@/web/components/ui/checkbox';
import { Input, NativeSelect } from '@/web/components/ui/input';
import { Field, Label } from '@/web/components/ui/label';
import type { Student } from './api';
import { studentTexts } from './texts';

/** What the student forms hold: text as typed; the shared schema turns it into the stored values. */
export interface StudentFormValues {
  name: string;
  class: string;
  section: string;
  rollNumber: string;
  admissionNumber: string;
  fatherName: string;
  motherName: string;
  dateOfBirth: string;
  mobileNumber: string;
  aadharNumber: string;
  residence: string;
  parentName: string;
  parentPhone: string;
  parentEmail: string;
  parentWhatsApp: string;
  monthlyBusFee: string;
  enrollmentDate: string;
  /** `YYYY-MM`; blank: from the start of the session */
  feesFromMonth: string;
  enableSmsReminders: boolean;
  enableWhatsappReminders: boolean;
  reminderPreference: ReminderPreference;
}

export const emptyStudentForm = (today: string): StudentFormValues => ({
  name: '',
  class: '',
  section: 'A',
  rollNumber: '',
  admissionNumber: '',
  fatherName: '',
  motherName: '',
  dateOfBirth: '',
  mobileNumber: '',
  aadharNumber: '',
  residence: '',
  parentName: '',
  parentPhone: '',
  parentEmail: '',
  parentWhatsApp: '',
  monthlyBusFee: '',
  enrollmentDate: today,
  feesFromMonth: today.slice(0, 7),
  enableSmsReminders: true,
  enableWhatsappReminders: true,
  reminderPreference: 'both',
});

/** The edit form starts from the record; the masked Aadhaar is sent back unchanged unless replaced. */
export const studentToForm = (s: Student): StudentFormValues => ({
  name: s.name,
  class: s.class,
  section: s.section,
  rollNumber: String(s.rollNumber),
  admissionNumber: s.admissionNumber ?? '',
  fatherName: s.fatherName,
  motherName: s.motherName,
  dateOfBirth: s.dateOfBirth ?? '',
  mobileNumber: s.mobileNumber,
  aadharNumber: s.aadharNumber ?? '',
  residence: s.residence,
  parentName: s.parentName,
  parentPhone: s.parentPhone,
  parentEmail: s.parentEmail,
  parentWhatsApp: s.parentWhatsApp,
  monthlyBusFee: s.monthlyBusFee,
  enrollmentDate: s.enrollmentDate ?? '',
  feesFromMonth: s.feesFromMonth ?? '',
  enableSmsReminders: s.enableSmsReminders,
  enableWhatsappReminders: s.enableWhatsappReminders,
  reminderPreference: s.reminderPreference,
});

type Form = UseFormReturn<StudentFormValues, unknown, unknown>;

const PREFERENCE_LABEL: Record<ReminderPreference, string> = { sms: 'SMS', whatsapp: 'WhatsApp', both: 'Both' };

export function FieldGrid({ children }: { children: ReactNode }) {
  return <div className="grid items-start gap-4 sm:grid-cols-2">{children}</div>;
}

function TextField({ formApi: form, name, label, id, ...rest }: { formApi: Form; name: keyof StudentFormValues; label: ReactNode; id: string } & React.ComponentProps<'input'>) {
  const error = form.formState.errors[name]?.message;
  return (
    <Field label={label} htmlFor={id} error={error}>
      <Input id={id} aria-invalid={error ? true : undefined} {...rest} {...form.register(name)} />
    </Field>
  );
}

/** Name, class and section; the roll number field differs between add (suggested) and edit. */
export function AcademicFields({ form, prefix, rollNumber }: { form: Form; prefix: string; rollNumber: ReactNode }) {
  const errors = form.formState.errors;
  return (
    <FieldGrid>
      <TextField formApi={form} name="name" id={`${prefix}-name`} label="Student Name *" autoComplete="off" className="sm:col-span-2" />
      <Field label="Class *" htmlFor={`${prefix}-class`} error={errors.class?.message}>
        <NativeSelect id={`${prefix}-class`} aria-invalid={errors.class ? true : undefined} {...form.register('class')}>
          <option value="">Select class</option>
          {CLASSES.map((c) => (
            <option key={c} value={c}>
              {c}
            </option>
          ))}
        </NativeSelect>
      </Field>
      <Field label="Section *" htmlFor={`${prefix}-section`} error={errors.section?.message}>
        <NativeSelect id={`${prefix}-section`} aria-invalid={errors.section ? true : undefined} {...form.register('section')}>
          {SECTIONS.map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </NativeSelect>
      </Field>
      {rollNumber}
      <TextField formApi={form} name="admissionNumber" id={`${prefix}-admission`} label="Admission Number" autoComplete="off" />
      <TextField formApi={form} name="enrollmentDate" id={`${prefix}-enrollment`} label="Enrollment Date" type="date" />
      <div className="grid gap-1">
        <TextField formApi={form} name="feesFromMonth" id={`${prefix}-fees-from`} label={studentTexts.feesFromLabel} type="month" aria-describedby={`${prefix}-fees-from-hint`} />
        <p id={`${prefix}-fees-from-hint`} className="text-xs text-muted-foreground">
          {studentTexts.feesFromHint}
        </p>
      </div>
    </FieldGrid>
  );
}

export function PersonalFields({ form, prefix, aadhaarHint }: { form: Form; prefix: string; aadhaarHint?: ReactNode }) {
  const error = form.formState.errors.aadharNumber?.message;
  return (
    <FieldGrid>
      <TextField formApi={form} name="fatherName" id={`${prefix}-father`} label="Father's Name" autoComplete="off" />
      <TextField formApi={form} name="motherName" id={`${prefix}-mother`} label="Mother's Name" autoComplete="off" />
      <TextField formApi={form} name="dateOfBirth" id={`${prefix}-dob`} label="Date of Birth" type="date" />
      <TextField formApi={form} name="mobileNumber" id={`${prefix}-mobile`} label="Mobile Number" type="tel" inputMode="tel" placeholder="9876543210" />
      <Field label="Aadhar Number" htmlFor={`${prefix}-aadhaar`} error={error} hint={aadhaarHint ?? '12 digits, as printed: 1234 5678 9012'}>
        <Input
          id={`${prefix}-aadhaar`}
          inputMode="numeric"
          maxLength={AADHAAR_INPUT_MAX}
          autoComplete="off"
          aria-invalid={error ? true : undefined}
          {...form.register('aadharNumber')}
        />
      </Field>
      <TextField formApi={form} name="residence" id={`${prefix}-residence`} label="Residence" autoComplete="off" />
    </FieldGrid>
  );
}

export function ParentFields({ form, prefix }: { form: Form; prefix: string }) {
  return (
    <FieldGrid>
      <TextField formApi={form} name="parentName" id={`${prefix}-parent-name`} label="Parent Name" autoComplete="off" />
      <TextField formApi={form} name="parentPhone" id={`${prefix}-parent-phone`} label="Parent Phone" type="tel" inputMode="tel" />
      <TextField formApi={form} name="parentEmail" id={`${prefix}-parent-email`} label="Parent Email" type="email" autoComplete="off" />
      <TextField formApi={form} name="parentWhatsApp" id={`${prefix}-parent-whatsapp`} label="Parent WhatsApp" type="tel" inputMode="tel" />
    </FieldGrid>
  );
}

/** Bus fee is per student (the class fee structure has none) and the fee reminder settings. */
export function BusAndReminderFields({ form, prefix }: { form: Form; prefix: string }) {
  return (
    <FieldGrid>
      <TextField
        formApi={form}
        name="monthlyBusFee"
        id={`${prefix}-bus-fee`}
        label="Monthly Bus Fee (₹)"
        type="text"
        inputMode="decimal"
        autoComplete="off"
        placeholder="0.00"
      />
      <Field label="Reminder Preference" htmlFor={`${prefix}-preference`}>
        <NativeSelect id={`${prefix}-preference`} {...form.register('reminderPreference')}>
          {REMINDER_PREFERENCES.map((p) => (
            <option key={p} value={p}>
              {PREFERENCE_LABEL[p]}
            </option>
          ))}
        </NativeSelect>
      </Field>
      <div className="flex flex-wrap gap-x-6 gap-y-3 sm:col-span-2">
        {(
          [
            ['enableSmsReminders', 'SMS fee reminders'],
            ['enableWhatsappReminders', 'WhatsApp fee reminders'],
          ] as const
        ).map(([name, label]) => (
          <Controller
            key={name}
            control={form.control}
            name={name}
            render={({ field }) => (
              <div className="flex items-center gap-2">
                <Checkbox id={`${prefix}-${name}`} checked={field.value} onCheckedChange={(v) => field.onChange(v === true)} />
                <Label htmlFor={`${prefix}-${name}`} className="font-normal">
                  {label}
                </Label>
              </div>
            )}
          />
        ))}
      </div>
    </FieldGrid>
  );
}
