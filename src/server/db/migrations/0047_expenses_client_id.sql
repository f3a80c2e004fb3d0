-- An expense added by the Add dialog carries the dialog's idempotency key (ruling 5): a second press,
-- or a retry after a lost answer, finds the expense the first made instead of adding it again.
ALTER TABLE "expenses" ADD COLUMN "client_id" text;--> statement-breakpoint
CREATE UNIQUE INDEX "expenses_school_client_idx" ON "expenses" USING btree ("school_id","client_id") WHERE "expenses"."client_id" is not null;