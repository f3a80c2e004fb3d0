CREATE TABLE "student_balances" (
	"school_id" uuid NOT NULL,
	"student_id" uuid NOT NULL,
	"opening_paise" bigint NOT NULL,
	"opening_paid" bigint NOT NULL,
	"opening_remaining" bigint NOT NULL,
	"carried_remaining" bigint NOT NULL,
	"carried_monthly_remaining" bigint NOT NULL,
	"carried_yearly_remaining" bigint NOT NULL,
	"credit_paise" bigint NOT NULL,
	"refreshed_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "student_balances_school_id_student_id_pk" PRIMARY KEY("school_id","student_id")
);
--> statement-breakpoint
CREATE TABLE "student_session_balances" (
	"school_id" uuid NOT NULL,
	"student_id" uuid NOT NULL,
	"session_id" uuid NOT NULL,
	"class_name" text NOT NULL,
	"section" text NOT NULL,
	"roll_number" integer NOT NULL,
	"first_key" text NOT NULL,
	"last_key" text NOT NULL,
	"start_key" text NOT NULL,
	"tuition_paise" bigint NOT NULL,
	"bus_paise" bigint NOT NULL,
	"admission_expected" bigint NOT NULL,
	"exam_expected" bigint NOT NULL,
	"books_expected" bigint NOT NULL,
	"uniform_expected" bigint NOT NULL,
	"misc_expected" bigint NOT NULL,
	"admission_paid" bigint NOT NULL,
	"exam_paid" bigint NOT NULL,
	"books_paid" bigint NOT NULL,
	"uniform_paid" bigint NOT NULL,
	"misc_paid" bigint NOT NULL,
	"yearly_owed" bigint NOT NULL,
	"tuition_mask" bigint NOT NULL,
	"bus_mask" bigint NOT NULL,
	"monthly_owed" bigint[] NOT NULL,
	"monthly_received" bigint NOT NULL,
	"yearly_received" bigint NOT NULL,
	"extras_received" bigint NOT NULL,
	"received" bigint NOT NULL,
	"closed" boolean NOT NULL,
	"through_month" text,
	"carried_paise" bigint NOT NULL,
	"carried_paid" bigint NOT NULL,
	"carried_remaining" bigint NOT NULL,
	"refreshed_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "student_session_balances_school_id_student_id_session_id_pk" PRIMARY KEY("school_id","student_id","session_id")
);
--> statement-breakpoint
ALTER TABLE "student_balances" ADD CONSTRAINT "student_balances_school_id_schools_id_fk" FOREIGN KEY ("school_id") REFERENCES "public"."schools"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "student_balances" ADD CONSTRAINT "student_balances_student_id_students_id_fk" FOREIGN KEY ("student_id") REFERENCES "public"."students"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "student_session_balances" ADD CONSTRAINT "student_session_balances_school_id_schools_id_fk" FOREIGN KEY ("school_id") REFERENCES "public"."schools"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "student_session_balances" ADD CONSTRAINT "student_session_balances_student_id_students_id_fk" FOREIGN KEY ("student_id") REFERENCES "public"."students"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "student_session_balances" ADD CONSTRAINT "student_session_balances_session_id_academic_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."academic_sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "student_session_balances_school_session_idx" ON "student_session_balances" USING btree ("school_id","session_id");