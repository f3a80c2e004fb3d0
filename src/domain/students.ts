import { z } from 'zod';
import { oneLine } from './text';
import { rupeeInput } from './amount-input';
import { normaliseClass, normaliseSection, SECTIONS, type ClassName, type Section } from './classes';
import { clientIdInput } from './ledger';
import { isoDate } from './sessions';

/**
 * Student input rules (operations §5 Add student, Edit student), shared by the forms and the
 * server. Messages are the documents' own words where they give them.
 */

export const REMINDER_PREFERENCES = ['sms', 'whatsapp', 'both'] as const;
export type ReminderPreference = (typeof REMINDER_PREFERENCES)[number];

/** An optional plus, a non-zero first digit, then 1 to 14 more digits (operations §5). */
export const MOBILE_PATTERN = /^\+?[1-9]\d{1,14}$/;
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
/** What the server shows instead of an Aadhaar number (ruling 24). */
export const MASKED_AADHAAR_PATTERN = /^X{4} X{4} \d{4}$/i;

export const EDIT_REQUIRED_MESSAGE = 'Please fill in all required fields (Name, Class, Section, Roll Number)';
export const BUS_FEE_MESSAGE = 'Bus fee must be an amount of at least 0 with at most 2 decimals';

const text = (max: number, label: string) =>
  z
    .string()
    .nullish()
    .transform((v) => (v ?? '').trim())
    .pipe(z.string().max(max, `${label} is too long`));

const requiredText = (message: string, max: number, label: string) =>
  z
    .string({ error: message })
    .nullish()
    .transform((v) => (v ?? '').trim())
    .pipe(oneLine(z.string().min(1, message).max(max, `${label} is too long`), label));

/** Class in any spelling the documents show (`1st`, `IST`, `Class 1`, `Grade 1`, `XII`) → canonical name. */
export const classInput = (requiredMessage: string) =>
  z
    .string({ error: requiredMessage })
    .nullish()
    .transform((v, ctx): ClassName => {
      const raw = (v ?? '').trim();
      if (!raw) {
        ctx.addIssue({ code: 'custom', message: requiredMessage });
        return z.NEVER;
      }
      const name = normaliseClass(raw);
      if (!name) {
        ctx.addIssue({ code: 'custom', message: `Unknown class "${raw.slice(0, 40)}"` });
        return z.NEVER;
      }
      return name;
    });

export const SECTION_MESSAGE = `Section must be one of ${SECTIONS.join(', ')}`;

export const sectionInput = (requiredMessage: string) =>
  z
    .string({ error: requiredMessage })
    .nullish()
    .transform((v, ctx): Section => {
      const raw = (v ?? '').trim();
      if (!raw) {
        ctx.addIssue({ code: 'custom', message: requiredMessage });
        return z.NEVER;
      }
      const section = normaliseSection(raw);
      if (!section) {
        ctx.addIssue({ code: 'custom', message: SECTION_MESSAGE });
        return z.NEVER;
      }
      return section;
    });

const optionalDate = (message: string) =>
  z
    .string()
    .nullish()
    .transform((v, ctx): string | null => {
      const raw = (v ?? '').trim();
      if (!raw) return null;
      if (!isoDate.safeParse(raw).success) {
        ctx.addIssue({ code: 'custom', message });
        return z.NEVER;
      }
      return raw;
    });

/** Spaces and hyphens are how people group phone digits; they are not part of the number. */
const mobile = z
  .string()
  .nullish()
  .transform((v) => (v ?? '').replace(/[\s-]/g, ''))
  .refine((v) => v === '' || MOBILE_PATTERN.test(v), 'Invalid mobile number format');

const email = z
  .string()
  .nullish()
  .transform((v) => (v ?? '').trim())
  .pipe(z.string().max(254, 'Invalid email format'))
  .refine((v) => v === '' || EMAIL_PATTERN.test(v), 'Invalid email format');

export const AADHAAR_MESSAGE = 'Aadhar number must be 12 digits';

/**
 * An Aadhaar number as people write it: printed on the card as `1234 5678 9012`, often typed as
 * `1234-5678-9012`. Spaces and hyphens only group the digits; the number is the twelve digits.
 * Returns '' for blank, the twelve digits, or null when it is not an Aadhaar number.
 */
export function normaliseAadhaar(raw: string | null | undefined): string | null {
  const digits = (raw ?? '').replace(/[\s-]/g, '');
  if (digits === '') return '';
  return /^\d{12}$/.test(digits) ? digits : null;
}

/** The longest way of typing the twelve digits the form accepts (`1234 - 5678 - 9012`). */
export const AADHAAR_INPUT_MAX = 20;

/** Twelve digits once the grouping is removed; blank means none. */
const aadhaarNew = z
  .string()
  .nullish()
  .transform((v, ctx): string | null => {
    const digits = normaliseAadhaar(v);
    if (digits === '') return null;
    if (digits === null) {
      ctx.addIssue({ code: 'custom', message: AADHAAR_MESSAGE });
      return z.NEVER;
    }
    return digits;
  });

/**
 * On edit the form shows the masked number: sending it back keeps what is stored (undefined), a
 * new twelve-digit number replaces it, and an empty value clears it (null).
 */
const aadhaarEdit = z
  .string()
  .nullish()
  .transform((v, ctx): string | null | undefined => {
    if (v === undefined) return undefined;
    const trimmed = (v ?? '').trim();
    if (MASKED_AADHAAR_PATTERN.test(trimmed)) return undefined;
    const digits = normaliseAadhaar(trimmed);
    if (digits === '') return null;
    if (digits === null) {
      ctx.addIssue({ code: 'custom', message: AADHAAR_MESSAGE });
      return z.NEVER;
    }
    return digits;
  });

const admissionNumber = z
  .union([z.string(), z.number()])
  .nullish()
  .transform((v) => String(v ?? '').trim())
  .pipe(z.string().max(50, 'Admission number is too long'))
  .transform((v) => (v === '' ? null : v));

const flag = z.boolean().optional().default(true);

export const FEES_FROM_MESSAGE = 'Fees from must be a month such as 2026-11';

/**
 * The month a student's monthly fees start (admitted mid-year): `2026-11`. Absent: the server's
 * default (the enrollment month on admission, unchanged on edit); blank or null: from the start of
 * the student's session.
 */
const feesFromMonth = z
  .string()
  .nullish()
  .transform((v, ctx): string | null | undefined => {
    if (v === undefined) return undefined;
    const raw = (v ?? '').trim();
    if (!raw) return null;
    if (!/^\d{4}-(0[1-9]|1[0-2])$/.test(raw)) {
      ctx.addIssue({ code: 'custom', message: FEES_FROM_MESSAGE });
      return z.NEVER;
    }
    return raw;
  });

const personFields = {
  admissionNumber,
  fatherName: text(200, "Father's name"),
  motherName: text(200, "Mother's name"),
  dateOfBirth: optionalDate('Enter a valid date of birth (YYYY-MM-DD)'),
  mobileNumber: mobile,
  residence: text(500, 'Residence'),
  parentName: text(200, 'Parent name'),
  parentPhone: text(30, 'Parent phone'),
  parentEmail: email,
  parentWhatsApp: text(30, 'Parent WhatsApp number'),
  monthlyBusFee: rupeeInput(BUS_FEE_MESSAGE),
  enrollmentDate: optionalDate('Enter a valid enrollment date (YYYY-MM-DD)'),
  feesFromMonth,
  enableSmsReminders: flag,
  enableWhatsappReminders: flag,
  reminderPreference: z.enum(REMINDER_PREFERENCES, { error: 'Reminder preference must be sms, whatsapp or both' }).optional().default('both'),
};

/**
 * Add New Student. The roll number is allocated by the server (ruling 10); a roll number sent by
 * the form is accepted as text and ignored.
 */
export const createStudentSchema = z.object({
  name: requiredText('Student name is required', 200, 'Student name'),
  class: classInput('Class is required'),
  section: sectionInput('Section is required'),
  rollNumber: z.union([z.string(), z.number()]).nullish(),
  aadharNumber: aadhaarNew,
  ...personFields,
});
export type CreateStudentInput = z.input<typeof createStudentSchema>;
export type CreateStudent = z.output<typeof createStudentSchema>;

/**
 * The Add Student dialog's request: the student and its idempotency key (ruling 5). A second press,
 * or a retry after a lost answer, carries the same key and finds the student the first one added.
 * Only this request carries a key: an import's rows and a promotion never do.
 */
export const addStudentSchema = createStudentSchema.extend({ clientId: clientIdInput });
export type AddStudentInput = z.input<typeof addStudentSchema>;
export type AddStudent = z.output<typeof addStudentSchema>;

export const STUDENT_KEY_REUSED_MESSAGE =
  'This student was already added with different details (the same clientId was used). Refresh the page to see what was saved.';

const rollNumberEdit = z
  .union([z.string(), z.number()], { error: EDIT_REQUIRED_MESSAGE })
  .nullish()
  .transform((v, ctx): number => {
    const raw = String(v ?? '').trim();
    if (!raw) {
      ctx.addIssue({ code: 'custom', message: EDIT_REQUIRED_MESSAGE });
      return z.NEVER;
    }
    if (!/^\d{1,6}$/.test(raw) || Number(raw) < 1) {
      ctx.addIssue({ code: 'custom', message: 'Roll number must be a whole number of at least 1' });
      return z.NEVER;
    }
    return Number(raw);
  });

/** Edit Complete Student Details: every field is sent; name, class, section and roll are required. */
export const updateStudentSchema = z.object({
  name: requiredText(EDIT_REQUIRED_MESSAGE, 200, 'Student name'),
  class: classInput(EDIT_REQUIRED_MESSAGE),
  section: sectionInput(EDIT_REQUIRED_MESSAGE),
  rollNumber: rollNumberEdit,
  aadharNumber: aadhaarEdit,
  ...personFields,
});
export type UpdateStudentInput = z.input<typeof updateStudentSchema>;
export type UpdateStudent = z.output<typeof updateStudentSchema>;

/** `Class 5-A`, the way a class and section are named in messages. */
export function classSectionLabel(className: string, section: string): string {
  return `${className}-${section}`;
}
