ALTER TABLE "schools" ADD COLUMN "plan_value_paise" bigint;--> statement-breakpoint
ALTER TABLE "schools" ADD COLUMN "plan_value_from" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "schools" ADD COLUMN "queued_plan" text;--> statement-breakpoint
ALTER TABLE "schools" ADD COLUMN "queued_start" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "schools" ADD COLUMN "queued_end" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "schools" ADD COLUMN "queued_value_paise" bigint;--> statement-breakpoint
ALTER TABLE "subscription_payments" ADD COLUMN "kind" text;--> statement-breakpoint
ALTER TABLE "subscription_payments" ADD COLUMN "credit_paise" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "subscription_payments" ADD COLUMN "period_start" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "subscription_payments" ADD COLUMN "period_end" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "schools" ADD CONSTRAINT "schools_queued_plan_plans_id_fk" FOREIGN KEY ("queued_plan") REFERENCES "public"."plans"("id") ON DELETE no action ON UPDATE no action;