-- Payments towards carried balances and opening arrears by payment date: the Class-wise report's
-- "arrears collected" of a session's dates. Without it the sum read every line of the year off
-- report_lines_paid_on_idx and kept the few arrears lines: 1.2 s and three processes for a
-- 60,000-student school's year of 1.3 million lines, on every Class-wise report (decision 0060).
CREATE INDEX IF NOT EXISTS "report_lines_arrears_paid_on_idx" ON "receipt_lines" USING btree ("school_id", "paid_on") INCLUDE ("amount_paise", "receipt_id") WHERE "head" IN ('previous_balance', 'opening_balance');
