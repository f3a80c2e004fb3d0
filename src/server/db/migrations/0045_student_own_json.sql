-- Decision 0091: the students page joins each student's own fields as PostgreSQL keeps them, written
-- once per change instead of encoded for every page read.
-- The members of `studentDto` from "admissionNumber" to "createdAt", in that order and in the formats
-- `toStudentDto` writes (students.test.ts holds every listed row to the student's own answer), as an
-- object's members without its braces. Every argument is turned into text, a boolean or null before
-- row_to_json sees it, and dates through fixed patterns, so the result depends on the arguments alone
-- (no DateStyle, TimeZone or locale): the function is immutable, as a generated column requires.
CREATE FUNCTION student_own_json(
  admission_number text, father_name text, mother_name text, date_of_birth date, mobile_number text,
  aadhaar_last4 text, residence text, parent_name text, parent_phone text, parent_email text,
  parent_whatsapp text, monthly_bus_fee_paise bigint, enrollment_date date, fees_from_month text,
  status text, session_id uuid, enable_sms_reminders boolean, enable_whatsapp_reminders boolean,
  reminder_preference text, created_at timestamptz
) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  select substr(o.j, 2, length(o.j) - 2)
  from (
    select row_to_json(r)::text as j
    from (
      select admission_number as "admissionNumber", father_name as "fatherName", mother_name as "motherName",
             to_char(date_of_birth::timestamp, 'YYYY-MM-DD') as "dateOfBirth", mobile_number as "mobileNumber",
             case when aadhaar_last4 <> '' then 'XXXX XXXX ' || aadhaar_last4 end as "aadharNumber",
             residence, parent_name as "parentName", parent_phone as "parentPhone", parent_email as "parentEmail",
             parent_whatsapp as "parentWhatsApp", (monthly_bus_fee_paise::numeric * 0.01)::text as "monthlyBusFee",
             to_char(enrollment_date::timestamp, 'YYYY-MM-DD') as "enrollmentDate", fees_from_month as "feesFromMonth", status,
             session_id::text as "sessionId", enable_sms_reminders as "enableSmsReminders",
             enable_whatsapp_reminders as "enableWhatsappReminders", reminder_preference as "reminderPreference",
             to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as "createdAt"
    ) r
  ) o
$$;
--> statement-breakpoint
-- Computed for every student now (a rewrite of the table), and by PostgreSQL on every insert and update after.
ALTER TABLE "students" ADD COLUMN "own_json" text GENERATED ALWAYS AS (student_own_json("students"."admission_number", "students"."father_name", "students"."mother_name", "students"."date_of_birth", "students"."mobile_number", "students"."aadhaar_last4", "students"."residence", "students"."parent_name", "students"."parent_phone", "students"."parent_email", "students"."parent_whatsapp", "students"."monthly_bus_fee_paise", "students"."enrollment_date", "students"."fees_from_month", "students"."status", "students"."session_id", "students"."enable_sms_reminders", "students"."enable_whatsapp_reminders", "students"."reminder_preference", "students"."created_at")) STORED NOT NULL;
