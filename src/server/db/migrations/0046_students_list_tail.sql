-- Decision 0104: the students page's rows, written by PostgreSQL (decision 0081), spent two thirds of
-- the page's statement on rendering each student's 28 fields to JSON at every read (row_to_json
-- and json_agg: about 0.45 of 0.7 ms of a backend's CPU a page of 50). The fields a student's own row
-- holds are rendered once, when the row is written, into list_tail; a page joins each student's
-- head (id, school, name), placement (class, section, roll number: today's, or a named session's),
-- list_tail and the class's fees. A BEFORE trigger writes it from the row being written, so no
-- write can leave it stale. Its fields and their order are studentDto's from admissionNumber to
-- createdAt (students.test.ts compares a listed student with their own answer, field by field).
ALTER TABLE "students" ADD COLUMN "list_tail" text;--> statement-breakpoint
-- the fields as JSON, without their braces, after a comma: `,"admissionNumber":…,"createdAt":"…"`.
-- Dates through to_char, not ::text, so no session's DateStyle can change them.
CREATE FUNCTION students_write_list_tail() RETURNS trigger AS $$
DECLARE
  j text;
BEGIN
  SELECT row_to_json(r)::text INTO j FROM (
    SELECT NEW.admission_number AS "admissionNumber", NEW.father_name AS "fatherName", NEW.mother_name AS "motherName",
           to_char(NEW.date_of_birth::timestamp, 'YYYY-MM-DD') AS "dateOfBirth", NEW.mobile_number AS "mobileNumber",
           CASE WHEN NEW.aadhaar_last4 <> '' THEN 'XXXX XXXX ' || NEW.aadhaar_last4 END AS "aadharNumber",
           NEW.residence AS "residence", NEW.parent_name AS "parentName", NEW.parent_phone AS "parentPhone",
           NEW.parent_email AS "parentEmail", NEW.parent_whatsapp AS "parentWhatsApp",
           ((NEW.monthly_bus_fee_paise)::numeric * 0.01)::text AS "monthlyBusFee",
           to_char(NEW.enrollment_date::timestamp, 'YYYY-MM-DD') AS "enrollmentDate", NEW.fees_from_month AS "feesFromMonth",
           NEW.status AS "status", NEW.session_id AS "sessionId", NEW.enable_sms_reminders AS "enableSmsReminders",
           NEW.enable_whatsapp_reminders AS "enableWhatsappReminders", NEW.reminder_preference AS "reminderPreference",
           to_char(NEW.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "createdAt"
  ) r;
  NEW.list_tail := ',' || substr(j, 2, length(j) - 2);
  RETURN NEW;
END;
$$ LANGUAGE plpgsql;--> statement-breakpoint
CREATE TRIGGER students_list_tail BEFORE INSERT OR UPDATE ON students FOR EACH ROW EXECUTE FUNCTION students_write_list_tail();--> statement-breakpoint
-- every student's row written once more (the trigger fills the column); then fresh statistics, which
-- also record that no page of the table is all-visible now, so the upgrade vacuums it (decision 0091)
-- before a page's index-only scans read the table for every entry
UPDATE students SET list_tail = NULL;--> statement-breakpoint
ALTER TABLE "students" ALTER COLUMN "list_tail" SET NOT NULL;--> statement-breakpoint
ANALYZE students;
