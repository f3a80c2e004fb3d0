-- Indexes for whole-school stats and reports (docs/decisions/0011-report-queries.md). They are
-- kept out of the ledger's schema file on purpose: they serve only the set-based report queries.

-- A session's lines per student, read without touching the table (stats, fee reports).
CREATE INDEX IF NOT EXISTS "report_lines_session_student_idx" ON "receipt_lines" USING btree ("school_id", "session_id", "student_id") INCLUDE ("head", "period", "amount_paise", "receipt_id");
--> statement-breakpoint
-- Money received in a period by payment date (financial report, income vs expense, this month's income).
CREATE INDEX IF NOT EXISTS "report_lines_paid_on_idx" ON "receipt_lines" USING btree ("school_id", "paid_on") INCLUDE ("head", "amount_paise", "receipt_id", "student_id", "session_id", "period");
--> statement-breakpoint
-- Cancelled receipts are few: reports leave their lines out with an anti-join against this small set
-- instead of looking up the receipt of every line.
CREATE INDEX IF NOT EXISTS "report_receipts_cancelled_idx" ON "receipts" USING btree ("school_id", "id") WHERE "status" = 'cancelled';
--> statement-breakpoint
-- Payments towards carried balances, per student and the session they pay off (outstanding-fees of a whole school).
CREATE INDEX IF NOT EXISTS "report_lines_previous_balance_idx" ON "receipt_lines" USING btree ("school_id", "student_id", "session_id") INCLUDE ("amount_paise", "receipt_id") WHERE "head" = 'previous_balance';
