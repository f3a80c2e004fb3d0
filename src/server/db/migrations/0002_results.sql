CREATE TABLE "results" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"school_id" uuid NOT NULL,
	"student_id" uuid NOT NULL,
	"session_id" uuid NOT NULL,
	"subject_id" uuid NOT NULL,
	"f1_halves" smallint,
	"f2_halves" smallint,
	"f3_halves" smallint,
	"f4_halves" smallint,
	"f5_halves" smallint,
	"f6_halves" smallint,
	"ca_halves" smallint,
	"sa_halves" smallint,
	"fa_halves" smallint NOT NULL,
	"total_halves" smallint NOT NULL,
	"grade" text NOT NULL,
	"remarks" text DEFAULT '' NOT NULL,
	"updated_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "subject_list_seeds" (
	"school_id" uuid NOT NULL,
	"class_name" text NOT NULL,
	"seeded_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "subject_list_seeds_school_id_class_name_pk" PRIMARY KEY("school_id","class_name")
);
--> statement-breakpoint
CREATE TABLE "subjects" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"school_id" uuid NOT NULL,
	"class_name" text NOT NULL,
	"name" text NOT NULL,
	"sort_order" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "results" ADD CONSTRAINT "results_school_id_schools_id_fk" FOREIGN KEY ("school_id") REFERENCES "public"."schools"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "results" ADD CONSTRAINT "results_student_id_students_id_fk" FOREIGN KEY ("student_id") REFERENCES "public"."students"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "results" ADD CONSTRAINT "results_session_id_academic_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."academic_sessions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "results" ADD CONSTRAINT "results_subject_id_subjects_id_fk" FOREIGN KEY ("subject_id") REFERENCES "public"."subjects"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "results" ADD CONSTRAINT "results_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subject_list_seeds" ADD CONSTRAINT "subject_list_seeds_school_id_schools_id_fk" FOREIGN KEY ("school_id") REFERENCES "public"."schools"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subjects" ADD CONSTRAINT "subjects_school_id_schools_id_fk" FOREIGN KEY ("school_id") REFERENCES "public"."schools"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "results_school_student_session_subject_unique" ON "results" USING btree ("school_id","student_id","session_id","subject_id");--> statement-breakpoint
CREATE INDEX "results_school_session_idx" ON "results" USING btree ("school_id","session_id");--> statement-breakpoint
CREATE INDEX "results_school_subject_idx" ON "results" USING btree ("school_id","subject_id");--> statement-breakpoint
CREATE UNIQUE INDEX "subjects_school_class_name_unique" ON "subjects" USING btree ("school_id","class_name",lower("name"));--> statement-breakpoint
CREATE INDEX "subjects_school_class_order_idx" ON "subjects" USING btree ("school_id","class_name","sort_order");