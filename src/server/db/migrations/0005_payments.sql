CREATE TABLE "subscription_payments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"school_id" uuid NOT NULL,
	"provider" text NOT NULL,
	"order_id" text NOT NULL,
	"payment_id" text,
	"plan_id" text NOT NULL,
	"billing_cycle" text NOT NULL,
	"base_paise" bigint NOT NULL,
	"discount_paise" bigint NOT NULL,
	"gst_paise" bigint NOT NULL,
	"amount_paise" bigint NOT NULL,
	"status" text DEFAULT 'created' NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"paid_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "subscription_payments" ADD CONSTRAINT "subscription_payments_school_id_schools_id_fk" FOREIGN KEY ("school_id") REFERENCES "public"."schools"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscription_payments" ADD CONSTRAINT "subscription_payments_plan_id_plans_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."plans"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "subscription_payments_order_unique" ON "subscription_payments" USING btree ("order_id");--> statement-breakpoint
CREATE UNIQUE INDEX "subscription_payments_payment_unique" ON "subscription_payments" USING btree ("payment_id");--> statement-breakpoint
CREATE INDEX "subscription_payments_school_created_idx" ON "subscription_payments" USING btree ("school_id","created_at");