CREATE TABLE "passouts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"school_id" uuid NOT NULL,
	"student_id" uuid NOT NULL,
	"name" text NOT NULL,
	"roll_number" integer NOT NULL,
	"last_class" text NOT NULL,
	"section" text NOT NULL,
	"session_id" uuid,
	"graduation_year" integer NOT NULL,
	"passout_date" date NOT NULL,
	"kind" text NOT NULL,
	"reason" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "student_previous_balances" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"school_id" uuid NOT NULL,
	"student_id" uuid NOT NULL,
	"session_id" uuid NOT NULL,
	"academic_year" text NOT NULL,
	"class_name" text NOT NULL,
	"monthly_outstanding_paise" bigint NOT NULL,
	"yearly_outstanding_paise" bigint NOT NULL,
	"through_month" text NOT NULL,
	"reason" text NOT NULL,
	"recorded_at" timestamp with time zone DEFAULT now() NOT NULL,
	"adjusted_at" timestamp with time zone,
	CONSTRAINT "student_previous_balances_non_negative" CHECK ("student_previous_balances"."monthly_outstanding_paise" >= 0 and "student_previous_balances"."yearly_outstanding_paise" >= 0)
);
--> statement-breakpoint
CREATE TABLE "receipt_counters" (
	"school_id" uuid NOT NULL,
	"prefix" text NOT NULL,
	"academic_year" text NOT NULL,
	"last_number" integer NOT NULL,
	CONSTRAINT "receipt_counters_school_id_prefix_academic_year_pk" PRIMARY KEY("school_id","prefix","academic_year")
);
--> statement-breakpoint
CREATE TABLE "receipt_lines" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"school_id" uuid NOT NULL,
	"receipt_id" uuid NOT NULL,
	"student_id" uuid NOT NULL,
	"session_id" uuid NOT NULL,
	"head" text NOT NULL,
	"period" text,
	"amount_paise" bigint NOT NULL,
	"paid_on" date NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "receipt_lines_amount_positive" CHECK ("receipt_lines"."amount_paise" > 0 and "receipt_lines"."amount_paise" <= 1000000000),
	CONSTRAINT "receipt_lines_period_format" CHECK ("receipt_lines"."period" is null or "receipt_lines"."period" ~ '^[0-9]{4}-(0[1-9]|1[0-2])$')
);
--> statement-breakpoint
CREATE TABLE "receipts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"school_id" uuid NOT NULL,
	"receipt_number" text NOT NULL,
	"prefix" text NOT NULL,
	"academic_year" text NOT NULL,
	"sequence" integer NOT NULL,
	"source" text NOT NULL,
	"student_id" uuid NOT NULL,
	"session_id" uuid NOT NULL,
	"student_name" text NOT NULL,
	"class_name" text NOT NULL,
	"section" text NOT NULL,
	"roll_number" integer NOT NULL,
	"payment_mode" text DEFAULT 'cash' NOT NULL,
	"cheque_number" text,
	"bank_name" text,
	"upi_reference" text,
	"transaction_reference" text,
	"received_by" text NOT NULL,
	"received_by_user_id" uuid,
	"received_at" timestamp with time zone NOT NULL,
	"total_paise" bigint NOT NULL,
	"client_id" text,
	"request_hash" text,
	"status" text DEFAULT 'live' NOT NULL,
	"cancelled_at" timestamp with time zone,
	"cancelled_by" uuid,
	"cancel_reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "receipts_total_positive" CHECK ("receipts"."total_paise" > 0),
	CONSTRAINT "receipts_cancel_complete" CHECK (("receipts"."status" = 'live' and "receipts"."cancelled_at" is null) or ("receipts"."status" = 'cancelled' and "receipts"."cancelled_at" is not null and "receipts"."cancel_reason" is not null))
);
--> statement-breakpoint
ALTER TABLE "passouts" ADD CONSTRAINT "passouts_school_id_schools_id_fk" FOREIGN KEY ("school_id") REFERENCES "public"."schools"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "passouts" ADD CONSTRAINT "passouts_student_id_students_id_fk" FOREIGN KEY ("student_id") REFERENCES "public"."students"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "passouts" ADD CONSTRAINT "passouts_session_id_academic_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."academic_sessions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "student_previous_balances" ADD CONSTRAINT "student_previous_balances_school_id_schools_id_fk" FOREIGN KEY ("school_id") REFERENCES "public"."schools"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "student_previous_balances" ADD CONSTRAINT "student_previous_balances_student_id_students_id_fk" FOREIGN KEY ("student_id") REFERENCES "public"."students"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "student_previous_balances" ADD CONSTRAINT "student_previous_balances_session_id_academic_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."academic_sessions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "receipt_counters" ADD CONSTRAINT "receipt_counters_school_id_schools_id_fk" FOREIGN KEY ("school_id") REFERENCES "public"."schools"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "receipt_lines" ADD CONSTRAINT "receipt_lines_school_id_schools_id_fk" FOREIGN KEY ("school_id") REFERENCES "public"."schools"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "receipt_lines" ADD CONSTRAINT "receipt_lines_receipt_id_receipts_id_fk" FOREIGN KEY ("receipt_id") REFERENCES "public"."receipts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "receipt_lines" ADD CONSTRAINT "receipt_lines_student_id_students_id_fk" FOREIGN KEY ("student_id") REFERENCES "public"."students"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "receipt_lines" ADD CONSTRAINT "receipt_lines_session_id_academic_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."academic_sessions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "receipts" ADD CONSTRAINT "receipts_school_id_schools_id_fk" FOREIGN KEY ("school_id") REFERENCES "public"."schools"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "receipts" ADD CONSTRAINT "receipts_student_id_students_id_fk" FOREIGN KEY ("student_id") REFERENCES "public"."students"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "receipts" ADD CONSTRAINT "receipts_session_id_academic_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."academic_sessions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "receipts" ADD CONSTRAINT "receipts_received_by_user_id_users_id_fk" FOREIGN KEY ("received_by_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "receipts" ADD CONSTRAINT "receipts_cancelled_by_users_id_fk" FOREIGN KEY ("cancelled_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "passouts_school_student_unique" ON "passouts" USING btree ("school_id","student_id");--> statement-breakpoint
CREATE INDEX "passouts_school_year_idx" ON "passouts" USING btree ("school_id","graduation_year");--> statement-breakpoint
CREATE UNIQUE INDEX "student_previous_balances_student_session_unique" ON "student_previous_balances" USING btree ("school_id","student_id","session_id");--> statement-breakpoint
CREATE INDEX "receipt_lines_school_student_session_idx" ON "receipt_lines" USING btree ("school_id","student_id","session_id","head");--> statement-breakpoint
CREATE INDEX "receipt_lines_school_session_idx" ON "receipt_lines" USING btree ("school_id","session_id");--> statement-breakpoint
CREATE INDEX "receipt_lines_school_receipt_idx" ON "receipt_lines" USING btree ("school_id","receipt_id");--> statement-breakpoint
CREATE UNIQUE INDEX "receipts_school_number_unique" ON "receipts" USING btree ("school_id","receipt_number");--> statement-breakpoint
CREATE UNIQUE INDEX "receipts_school_sequence_unique" ON "receipts" USING btree ("school_id","prefix","academic_year","sequence");--> statement-breakpoint
CREATE UNIQUE INDEX "receipts_school_client_unique" ON "receipts" USING btree ("school_id","client_id") WHERE "receipts"."client_id" is not null;--> statement-breakpoint
CREATE INDEX "receipts_school_student_idx" ON "receipts" USING btree ("school_id","student_id","received_at");--> statement-breakpoint
CREATE INDEX "receipts_school_received_idx" ON "receipts" USING btree ("school_id","received_at");