-- Decision 0089: the financial report's two tables, at 60,000 students.
-- The yearly table's lines (every head but tuition and bus: a fifth of a year's lines) by payment date,
-- read without the other four fifths. Only such lines are written to it.
CREATE INDEX IF NOT EXISTS "report_lines_yearly_paid_on_idx" ON "receipt_lines" USING btree ("school_id", "paid_on") INCLUDE ("head", "amount_paise", "receipt_id", "student_id", "session_id") WHERE "head" NOT IN ('tuition', 'bus');
--> statement-breakpoint
-- A session's lines per student (migration 0008) now with their payment date: the monthly table's
-- check that none of a month's lines was paid after its cut-off reads them without the table.
DROP INDEX IF EXISTS "report_lines_session_student_idx";
--> statement-breakpoint
CREATE INDEX "report_lines_session_student_idx" ON "receipt_lines" USING btree ("school_id", "session_id", "student_id") INCLUDE ("head", "period", "amount_paise", "receipt_id", "paid_on");
