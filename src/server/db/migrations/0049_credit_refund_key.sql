-- A credit refund carries the Refund dialog's idempotency key (ruling 5): a second press, or a retry
-- after a lost answer, finds the refund the first recorded instead of paying the family out twice.
ALTER TABLE "student_credit_entries" ADD COLUMN "client_id" text;--> statement-breakpoint
CREATE UNIQUE INDEX "student_credit_entries_school_client_idx" ON "student_credit_entries" USING btree ("school_id","client_id") WHERE "student_credit_entries"."client_id" is not null;