ALTER TABLE "student_session_balances" ADD COLUMN "monthly_granted" bigint[] DEFAULT '{}'::bigint[] NOT NULL;--> statement-breakpoint
ALTER TABLE "student_session_balances" ADD COLUMN "yearly_granted" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
-- rows stored before concessions joined the running balances: drop the per-student rows of schools that
-- have an approved concession, so the start-up backfill (balances/backfill.ts) rebuilds them from source
DELETE FROM "student_balances" WHERE "school_id" IN (SELECT "school_id" FROM "concessions" WHERE "status" = 'approved');
