CREATE TABLE "academic_sessions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"school_id" uuid NOT NULL,
	"name" text NOT NULL,
	"start_date" date NOT NULL,
	"end_date" date NOT NULL,
	"is_active" boolean DEFAULT false NOT NULL,
	"is_promotion_completed" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "class_fee_structures" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"school_id" uuid NOT NULL,
	"class_name" text NOT NULL,
	"academic_year" text NOT NULL,
	"monthly_tuition_fee_paise" bigint DEFAULT 0 NOT NULL,
	"yearly_fee_paise" bigint DEFAULT 0 NOT NULL,
	"exam_fee_paise" bigint DEFAULT 0 NOT NULL,
	"books_fee_paise" bigint DEFAULT 0 NOT NULL,
	"uniform_fee_paise" bigint DEFAULT 0 NOT NULL,
	"misc_fee_paise" bigint DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "roll_counters" (
	"school_id" uuid NOT NULL,
	"session_id" uuid NOT NULL,
	"class_name" text NOT NULL,
	"section" text NOT NULL,
	"last_roll" integer NOT NULL,
	CONSTRAINT "roll_counters_school_id_session_id_class_name_section_pk" PRIMARY KEY("school_id","session_id","class_name","section")
);
--> statement-breakpoint
CREATE TABLE "student_enrollments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"school_id" uuid NOT NULL,
	"student_id" uuid NOT NULL,
	"session_id" uuid NOT NULL,
	"class_name" text NOT NULL,
	"section" text NOT NULL,
	"roll_number" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "students" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"school_id" uuid NOT NULL,
	"admission_number" text,
	"name" text NOT NULL,
	"class_name" text NOT NULL,
	"section" text DEFAULT 'A' NOT NULL,
	"roll_number" integer NOT NULL,
	"session_id" uuid,
	"father_name" text DEFAULT '' NOT NULL,
	"mother_name" text DEFAULT '' NOT NULL,
	"date_of_birth" date,
	"mobile_number" text DEFAULT '' NOT NULL,
	"aadhaar_encrypted" text,
	"aadhaar_last4" text,
	"residence" text DEFAULT '' NOT NULL,
	"parent_name" text DEFAULT '' NOT NULL,
	"parent_phone" text DEFAULT '' NOT NULL,
	"parent_email" text DEFAULT '' NOT NULL,
	"parent_whatsapp" text DEFAULT '' NOT NULL,
	"monthly_bus_fee_paise" bigint DEFAULT 0 NOT NULL,
	"enrollment_date" date,
	"status" text DEFAULT 'active' NOT NULL,
	"enable_sms_reminders" boolean DEFAULT true NOT NULL,
	"enable_whatsapp_reminders" boolean DEFAULT true NOT NULL,
	"reminder_preference" text DEFAULT 'both' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "academic_sessions" ADD CONSTRAINT "academic_sessions_school_id_schools_id_fk" FOREIGN KEY ("school_id") REFERENCES "public"."schools"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "class_fee_structures" ADD CONSTRAINT "class_fee_structures_school_id_schools_id_fk" FOREIGN KEY ("school_id") REFERENCES "public"."schools"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "roll_counters" ADD CONSTRAINT "roll_counters_school_id_schools_id_fk" FOREIGN KEY ("school_id") REFERENCES "public"."schools"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "roll_counters" ADD CONSTRAINT "roll_counters_session_id_academic_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."academic_sessions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "student_enrollments" ADD CONSTRAINT "student_enrollments_school_id_schools_id_fk" FOREIGN KEY ("school_id") REFERENCES "public"."schools"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "student_enrollments" ADD CONSTRAINT "student_enrollments_student_id_students_id_fk" FOREIGN KEY ("student_id") REFERENCES "public"."students"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "student_enrollments" ADD CONSTRAINT "student_enrollments_session_id_academic_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."academic_sessions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "students" ADD CONSTRAINT "students_school_id_schools_id_fk" FOREIGN KEY ("school_id") REFERENCES "public"."schools"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "students" ADD CONSTRAINT "students_session_id_academic_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."academic_sessions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "academic_sessions_school_name_unique" ON "academic_sessions" USING btree ("school_id","name");--> statement-breakpoint
CREATE UNIQUE INDEX "academic_sessions_one_active" ON "academic_sessions" USING btree ("school_id") WHERE "academic_sessions"."is_active";--> statement-breakpoint
CREATE UNIQUE INDEX "class_fee_structures_school_class_year_unique" ON "class_fee_structures" USING btree ("school_id","class_name","academic_year");--> statement-breakpoint
CREATE UNIQUE INDEX "student_enrollments_student_session_unique" ON "student_enrollments" USING btree ("school_id","student_id","session_id");--> statement-breakpoint
CREATE UNIQUE INDEX "student_enrollments_roll_unique" ON "student_enrollments" USING btree ("school_id","session_id","class_name","section","roll_number");--> statement-breakpoint
CREATE INDEX "students_school_class_section_roll_idx" ON "students" USING btree ("school_id","status","class_name","section","roll_number");--> statement-breakpoint
CREATE INDEX "students_school_name_idx" ON "students" USING btree ("school_id","name");--> statement-breakpoint
CREATE UNIQUE INDEX "students_school_admission_unique" ON "students" USING btree ("school_id","admission_number") WHERE "students"."admission_number" is not null;