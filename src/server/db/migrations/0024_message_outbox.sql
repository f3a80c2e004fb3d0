CREATE TABLE "message_outbox" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"school_id" uuid NOT NULL,
	"student_id" uuid NOT NULL,
	"channel" text NOT NULL,
	"to_number" text NOT NULL,
	"body" text NOT NULL,
	"template_values" jsonb NOT NULL,
	"link_id" uuid,
	"link_url" text,
	"origin" text NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone,
	"last_error" text,
	"last_failed_at" timestamp with time zone,
	"provider_message_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" uuid,
	"sent_at" timestamp with time zone,
	"delivered_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "reminder_settings" (
	"school_id" uuid PRIMARY KEY NOT NULL,
	"enabled" boolean DEFAULT false NOT NULL,
	"day_of_month" integer DEFAULT 5 NOT NULL,
	"channel" text DEFAULT 'preferred' NOT NULL,
	"last_run_month" text,
	"last_run_at" timestamp with time zone,
	"last_run_summary" jsonb,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "reminder_settings_day_of_month" CHECK ("reminder_settings"."day_of_month" between 1 and 28)
);
--> statement-breakpoint
ALTER TABLE "message_outbox" ADD CONSTRAINT "message_outbox_school_id_schools_id_fk" FOREIGN KEY ("school_id") REFERENCES "public"."schools"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "message_outbox" ADD CONSTRAINT "message_outbox_student_id_students_id_fk" FOREIGN KEY ("student_id") REFERENCES "public"."students"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "message_outbox" ADD CONSTRAINT "message_outbox_link_id_payment_links_id_fk" FOREIGN KEY ("link_id") REFERENCES "public"."payment_links"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "message_outbox" ADD CONSTRAINT "message_outbox_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reminder_settings" ADD CONSTRAINT "reminder_settings_school_id_schools_id_fk" FOREIGN KEY ("school_id") REFERENCES "public"."schools"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "message_outbox_school_student_idx" ON "message_outbox" USING btree ("school_id","student_id","created_at");--> statement-breakpoint
CREATE INDEX "message_outbox_due_idx" ON "message_outbox" USING btree ("status","next_attempt_at","created_at") WHERE "message_outbox"."status" in ('queued', 'sending');--> statement-breakpoint
CREATE INDEX "message_outbox_failures_idx" ON "message_outbox" USING btree ("last_failed_at") WHERE "message_outbox"."last_failed_at" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "message_outbox_provider_id_unique" ON "message_outbox" USING btree ("channel","provider_message_id") WHERE "message_outbox"."provider_message_id" is not null;