CREATE TABLE "session_rollovers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"school_id" uuid NOT NULL,
	"from_session_id" uuid NOT NULL,
	"to_session_id" uuid NOT NULL,
	"through_month" text NOT NULL,
	"moved" jsonb NOT NULL,
	"summary" jsonb NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"started_by" uuid,
	"undone_at" timestamp with time zone,
	"undone_by" uuid
);
--> statement-breakpoint
ALTER TABLE "session_rollovers" ADD CONSTRAINT "session_rollovers_school_id_schools_id_fk" FOREIGN KEY ("school_id") REFERENCES "public"."schools"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "session_rollovers" ADD CONSTRAINT "session_rollovers_from_session_id_academic_sessions_id_fk" FOREIGN KEY ("from_session_id") REFERENCES "public"."academic_sessions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "session_rollovers" ADD CONSTRAINT "session_rollovers_to_session_id_academic_sessions_id_fk" FOREIGN KEY ("to_session_id") REFERENCES "public"."academic_sessions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "session_rollovers_school_to_idx" ON "session_rollovers" USING btree ("school_id","to_session_id");