ALTER TABLE "student_session_balances" ADD COLUMN "yearly_owed_by_month" bigint[];--> statement-breakpoint
ALTER TABLE "student_session_balances" ADD COLUMN "due_through" integer[];--> statement-breakpoint
ALTER TABLE "student_session_balances" ADD COLUMN "yearly_due_by_month" bigint[];--> statement-breakpoint
ALTER TABLE "student_session_balances" ADD COLUMN "yearly_granted_by_month" bigint[];--> statement-breakpoint
ALTER TABLE "student_session_balances" ADD COLUMN "yearly_received_by_month" bigint[];