CREATE TABLE "cash_closings" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"school_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"day" date NOT NULL,
	"counts" jsonb NOT NULL,
	"counted_paise" bigint NOT NULL,
	"expected_paise" bigint NOT NULL,
	"note" text DEFAULT '' NOT NULL,
	"closed_at" timestamp with time zone NOT NULL,
	"acknowledged_at" timestamp with time zone,
	"acknowledged_by" uuid
);
--> statement-breakpoint
CREATE TABLE "cheques" (
	"receipt_id" uuid PRIMARY KEY NOT NULL,
	"school_id" uuid NOT NULL,
	"status" text NOT NULL,
	"deposited_on" date,
	"cleared_on" date,
	"bounced_on" date,
	"bounce_reason" text,
	"bank_charges_paise" bigint,
	"updated_by" uuid,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "cheques_bounce_complete" CHECK ("cheques"."status" <> 'bounced' or ("cheques"."bounced_on" is not null and "cheques"."bounce_reason" is not null))
);
--> statement-breakpoint
CREATE TABLE "teacher_assignments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"school_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"class_name" text NOT NULL,
	"section" text,
	"subjects" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "plans" ADD COLUMN "user_limit" integer;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "school_role" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "deactivated_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "invited_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "invited_by" uuid;--> statement-breakpoint
ALTER TABLE "cash_closings" ADD CONSTRAINT "cash_closings_school_id_schools_id_fk" FOREIGN KEY ("school_id") REFERENCES "public"."schools"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cash_closings" ADD CONSTRAINT "cash_closings_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cash_closings" ADD CONSTRAINT "cash_closings_acknowledged_by_users_id_fk" FOREIGN KEY ("acknowledged_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cheques" ADD CONSTRAINT "cheques_receipt_id_receipts_id_fk" FOREIGN KEY ("receipt_id") REFERENCES "public"."receipts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cheques" ADD CONSTRAINT "cheques_school_id_schools_id_fk" FOREIGN KEY ("school_id") REFERENCES "public"."schools"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cheques" ADD CONSTRAINT "cheques_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "teacher_assignments" ADD CONSTRAINT "teacher_assignments_school_id_schools_id_fk" FOREIGN KEY ("school_id") REFERENCES "public"."schools"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "teacher_assignments" ADD CONSTRAINT "teacher_assignments_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "cash_closings_school_user_day_unique" ON "cash_closings" USING btree ("school_id","user_id","day");--> statement-breakpoint
CREATE INDEX "cash_closings_school_day_idx" ON "cash_closings" USING btree ("school_id","day");--> statement-breakpoint
CREATE INDEX "cheques_school_status_idx" ON "cheques" USING btree ("school_id","status");--> statement-breakpoint
CREATE INDEX "teacher_assignments_school_user_idx" ON "teacher_assignments" USING btree ("school_id","user_id");--> statement-breakpoint
-- ruling 32: every school user so far registered the school, so each is its owner
UPDATE "users" SET "school_role" = 'owner' WHERE "role" = 'school_admin' AND "school_role" IS NULL;--> statement-breakpoint
UPDATE "plans" SET "user_limit" = 2 WHERE "id" = 'basic' AND "user_limit" IS NULL;--> statement-breakpoint
UPDATE "plans" SET "user_limit" = 5 WHERE "id" = 'standard' AND "user_limit" IS NULL;
