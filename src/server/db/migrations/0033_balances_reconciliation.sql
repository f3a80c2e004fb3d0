ALTER TABLE "student_session_balances" ADD COLUMN "monthly_applied" bigint[] DEFAULT '{}'::bigint[] NOT NULL;--> statement-breakpoint
ALTER TABLE "student_session_balances" ADD COLUMN "monthly_discount" bigint[] DEFAULT '{}'::bigint[] NOT NULL;--> statement-breakpoint
ALTER TABLE "student_session_balances" ADD COLUMN "yearly_applied" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "student_session_balances" ADD COLUMN "monthly_paid" bigint[] DEFAULT '{}'::bigint[] NOT NULL;--> statement-breakpoint
ALTER TABLE "student_session_balances" ADD COLUMN "bus_paid" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
-- The running balances are derived data (decision 0041): the rows written before these columns lack
-- them, so they go, and the server's start rebuilds every school from the ledger before it serves
-- a request (backfillBalances), as it did when the tables were introduced.
DELETE FROM "student_session_balances";--> statement-breakpoint
DELETE FROM "student_balances";
