CREATE TABLE "school_positions" (
	"school_id" uuid PRIMARY KEY NOT NULL,
	"month_key" text,
	"built_at" timestamp with time zone DEFAULT now() NOT NULL,
	"total_students" integer DEFAULT 0 NOT NULL,
	"pending_fees" bigint DEFAULT 0 NOT NULL,
	"pending_students" integer DEFAULT 0 NOT NULL,
	"carried_owed" bigint DEFAULT 0 NOT NULL,
	"expected_now" bigint DEFAULT 0 NOT NULL,
	"yearly_potential" bigint DEFAULT 0 NOT NULL,
	"revenue" bigint DEFAULT 0 NOT NULL,
	"month_income" bigint DEFAULT 0 NOT NULL,
	"bus_paid_active" bigint DEFAULT 0 NOT NULL,
	"month_paid" bigint DEFAULT 0 NOT NULL,
	"paid_last" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "student_position_marks" (
	"school_id" uuid NOT NULL,
	"student_id" uuid NOT NULL,
	"marked_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "student_position_marks_school_id_student_id_pk" PRIMARY KEY("school_id","student_id")
);
--> statement-breakpoint
CREATE TABLE "student_positions" (
	"school_id" uuid NOT NULL,
	"student_id" uuid NOT NULL,
	"active" boolean NOT NULL,
	"session_id" uuid,
	"closed" boolean NOT NULL,
	"class_name" text NOT NULL,
	"section" text NOT NULL,
	"roll_number" integer NOT NULL,
	"name" text NOT NULL,
	"phone" text NOT NULL,
	"class_rank" integer NOT NULL,
	"first_key" text,
	"start_key" text,
	"due_months" integer NOT NULL,
	"due_mask" bigint NOT NULL,
	"tuition_paise" bigint NOT NULL,
	"bus_paise" bigint NOT NULL,
	"tuition_mask" bigint NOT NULL,
	"bus_mask" bigint NOT NULL,
	"monthly_owed" bigint NOT NULL,
	"yearly_owed" bigint NOT NULL,
	"carried_owed" bigint NOT NULL,
	"owed" bigint NOT NULL,
	"expected_now" bigint NOT NULL,
	"yearly_potential" bigint NOT NULL,
	"bus_paid_active" bigint NOT NULL,
	"month_paid" bigint NOT NULL,
	"paid_last" boolean NOT NULL,
	"revenue" bigint NOT NULL,
	"month_income" bigint NOT NULL,
	CONSTRAINT "student_positions_school_id_student_id_pk" PRIMARY KEY("school_id","student_id")
);
--> statement-breakpoint
ALTER TABLE "school_positions" ADD CONSTRAINT "school_positions_school_id_schools_id_fk" FOREIGN KEY ("school_id") REFERENCES "public"."schools"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "student_positions_owing_idx" ON "student_positions" USING btree ("school_id","class_rank","section","roll_number","name") WHERE "student_positions"."active" and "student_positions"."owed" > 0;
--> statement-breakpoint
-- Decision 0058: every change to what a student's whole-school figures are read from marks the
-- student; the next reader of those figures recomputes the marked rows. A mark that exists is
-- updated, not skipped: the update holds its row until the writer commits, so a reader clearing the
-- marks passes over it (SKIP LOCKED) and it stays for the next reader, who sees the write (a skipped
-- conflict would let a reader clear the mark, read the rows before the write commits, and keep them
-- stale). Writers never wait for readers' locks but a cleared mark's, so no reader and writer deadlock.
-- each trigger names its transition table "changed" (the new rows, or the old ones of a delete)
CREATE FUNCTION positions_mark_rows() RETURNS trigger AS $$
BEGIN
  INSERT INTO student_position_marks (school_id, student_id)
  SELECT DISTINCT school_id, student_id FROM changed
  ON CONFLICT (school_id, student_id) DO UPDATE SET marked_at = excluded.marked_at;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE FUNCTION positions_mark_students() RETURNS trigger AS $$
BEGIN
  INSERT INTO student_position_marks (school_id, student_id)
  SELECT DISTINCT school_id, id FROM changed
  ON CONFLICT (school_id, student_id) DO UPDATE SET marked_at = excluded.marked_at;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
-- sessions decide whose session a student is counted in and which months are "this" and "last":
-- any change to them marks the whole school (the nil id), which the next reader rebuilds
CREATE FUNCTION positions_mark_school() RETURNS trigger AS $$
BEGIN
  INSERT INTO student_position_marks (school_id, student_id)
  VALUES (CASE WHEN TG_OP = 'DELETE' THEN OLD.school_id ELSE NEW.school_id END, '00000000-0000-0000-0000-000000000000')
  ON CONFLICT (school_id, student_id) DO UPDATE SET marked_at = excluded.marked_at;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER students_positions_insert AFTER INSERT ON students REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION positions_mark_students();
--> statement-breakpoint
CREATE TRIGGER students_positions_update AFTER UPDATE ON students REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION positions_mark_students();
--> statement-breakpoint
CREATE TRIGGER students_positions_delete AFTER DELETE ON students REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION positions_mark_students();
--> statement-breakpoint
CREATE TRIGGER session_balances_positions_insert AFTER INSERT ON student_session_balances REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION positions_mark_rows();
--> statement-breakpoint
CREATE TRIGGER session_balances_positions_update AFTER UPDATE ON student_session_balances REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION positions_mark_rows();
--> statement-breakpoint
CREATE TRIGGER session_balances_positions_delete AFTER DELETE ON student_session_balances REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION positions_mark_rows();
--> statement-breakpoint
CREATE TRIGGER student_balances_positions_insert AFTER INSERT ON student_balances REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION positions_mark_rows();
--> statement-breakpoint
CREATE TRIGGER student_balances_positions_update AFTER UPDATE ON student_balances REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION positions_mark_rows();
--> statement-breakpoint
CREATE TRIGGER student_balances_positions_delete AFTER DELETE ON student_balances REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION positions_mark_rows();
--> statement-breakpoint
-- a receipt's lines are written with it and never after (migration 0004): the receipt's mark covers them
CREATE TRIGGER receipts_positions_insert AFTER INSERT ON receipts REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION positions_mark_rows();
--> statement-breakpoint
CREATE TRIGGER receipts_positions_update AFTER UPDATE ON receipts REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION positions_mark_rows();
--> statement-breakpoint
CREATE TRIGGER credit_entries_positions_insert AFTER INSERT ON student_credit_entries REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION positions_mark_rows();
--> statement-breakpoint
CREATE TRIGGER credit_entries_positions_update AFTER UPDATE ON student_credit_entries REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION positions_mark_rows();
--> statement-breakpoint
CREATE TRIGGER credit_entries_positions_delete AFTER DELETE ON student_credit_entries REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION positions_mark_rows();
--> statement-breakpoint
CREATE TRIGGER sessions_positions_change AFTER INSERT OR UPDATE OR DELETE ON academic_sessions FOR EACH ROW EXECUTE FUNCTION positions_mark_school();
