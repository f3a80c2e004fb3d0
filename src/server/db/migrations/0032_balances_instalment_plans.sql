ALTER TABLE "student_session_balances" ADD COLUMN "yearly_owed_by_month" bigint[];--> statement-breakpoint
ALTER TABLE "student_session_balances" ADD COLUMN "due_through" integer[];