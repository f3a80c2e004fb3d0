CREATE TABLE "online_payments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"school_id" uuid NOT NULL,
	"link_id" uuid NOT NULL,
	"student_id" uuid NOT NULL,
	"provider" text NOT NULL,
	"order_id" text NOT NULL,
	"payment_id" text,
	"amount_paise" bigint NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"receipt_id" uuid,
	"credit_paise" bigint DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"captured_at" timestamp with time zone,
	CONSTRAINT "online_payments_amount_positive" CHECK ("online_payments"."amount_paise" > 0)
);
--> statement-breakpoint
CREATE TABLE "payment_links" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"school_id" uuid NOT NULL,
	"student_id" uuid NOT NULL,
	"link_token" text NOT NULL,
	"fee_type" text NOT NULL,
	"fee_month" text,
	"amount_paise" bigint NOT NULL,
	"description" text NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"created_by" uuid,
	"paid_at" timestamp with time zone,
	"receipt_id" uuid,
	"cancelled_at" timestamp with time zone,
	CONSTRAINT "payment_links_amount_positive" CHECK ("payment_links"."amount_paise" > 0)
);
--> statement-breakpoint
CREATE TABLE "school_payment_settings" (
	"school_id" uuid PRIMARY KEY NOT NULL,
	"razorpay_key_id" text,
	"razorpay_key_secret_enc" text,
	"razorpay_webhook_secret_enc" text,
	"upi_vpa" text,
	"upi_payee_name" text,
	"webhook_key" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "student_credit_entries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"school_id" uuid NOT NULL,
	"student_id" uuid NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"kind" text NOT NULL,
	"amount_paise" bigint NOT NULL,
	"reason" text,
	"mode" text,
	"receipt_id" uuid,
	"online_payment_id" uuid,
	"by_user_id" uuid,
	"by_name" text NOT NULL,
	CONSTRAINT "student_credit_entries_sign" CHECK (("student_credit_entries"."kind" = 'online_excess' and "student_credit_entries"."amount_paise" > 0) or ("student_credit_entries"."kind" <> 'online_excess' and "student_credit_entries"."amount_paise" < 0)),
	CONSTRAINT "student_credit_entries_refund_reason" CHECK ("student_credit_entries"."kind" <> 'refund' or ("student_credit_entries"."reason" is not null and length("student_credit_entries"."reason") > 0))
);
--> statement-breakpoint
CREATE TABLE "upi_confirmations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"school_id" uuid NOT NULL,
	"link_id" uuid NOT NULL,
	"student_id" uuid NOT NULL,
	"amount_paise" bigint NOT NULL,
	"upi_reference" text NOT NULL,
	"payer_name" text,
	"submitted_at" timestamp with time zone NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"reason" text,
	"online_payment_id" uuid,
	"decided_at" timestamp with time zone,
	"decided_by" uuid
);
--> statement-breakpoint
ALTER TABLE "online_payments" ADD CONSTRAINT "online_payments_school_id_schools_id_fk" FOREIGN KEY ("school_id") REFERENCES "public"."schools"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "online_payments" ADD CONSTRAINT "online_payments_link_id_payment_links_id_fk" FOREIGN KEY ("link_id") REFERENCES "public"."payment_links"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "online_payments" ADD CONSTRAINT "online_payments_student_id_students_id_fk" FOREIGN KEY ("student_id") REFERENCES "public"."students"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "online_payments" ADD CONSTRAINT "online_payments_receipt_id_receipts_id_fk" FOREIGN KEY ("receipt_id") REFERENCES "public"."receipts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_links" ADD CONSTRAINT "payment_links_school_id_schools_id_fk" FOREIGN KEY ("school_id") REFERENCES "public"."schools"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_links" ADD CONSTRAINT "payment_links_student_id_students_id_fk" FOREIGN KEY ("student_id") REFERENCES "public"."students"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_links" ADD CONSTRAINT "payment_links_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_links" ADD CONSTRAINT "payment_links_receipt_id_receipts_id_fk" FOREIGN KEY ("receipt_id") REFERENCES "public"."receipts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "school_payment_settings" ADD CONSTRAINT "school_payment_settings_school_id_schools_id_fk" FOREIGN KEY ("school_id") REFERENCES "public"."schools"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "student_credit_entries" ADD CONSTRAINT "student_credit_entries_school_id_schools_id_fk" FOREIGN KEY ("school_id") REFERENCES "public"."schools"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "student_credit_entries" ADD CONSTRAINT "student_credit_entries_student_id_students_id_fk" FOREIGN KEY ("student_id") REFERENCES "public"."students"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "student_credit_entries" ADD CONSTRAINT "student_credit_entries_receipt_id_receipts_id_fk" FOREIGN KEY ("receipt_id") REFERENCES "public"."receipts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "student_credit_entries" ADD CONSTRAINT "student_credit_entries_online_payment_id_online_payments_id_fk" FOREIGN KEY ("online_payment_id") REFERENCES "public"."online_payments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "student_credit_entries" ADD CONSTRAINT "student_credit_entries_by_user_id_users_id_fk" FOREIGN KEY ("by_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "upi_confirmations" ADD CONSTRAINT "upi_confirmations_school_id_schools_id_fk" FOREIGN KEY ("school_id") REFERENCES "public"."schools"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "upi_confirmations" ADD CONSTRAINT "upi_confirmations_link_id_payment_links_id_fk" FOREIGN KEY ("link_id") REFERENCES "public"."payment_links"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "upi_confirmations" ADD CONSTRAINT "upi_confirmations_student_id_students_id_fk" FOREIGN KEY ("student_id") REFERENCES "public"."students"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "upi_confirmations" ADD CONSTRAINT "upi_confirmations_online_payment_id_online_payments_id_fk" FOREIGN KEY ("online_payment_id") REFERENCES "public"."online_payments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "upi_confirmations" ADD CONSTRAINT "upi_confirmations_decided_by_users_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "online_payments_school_order_unique" ON "online_payments" USING btree ("school_id","order_id");--> statement-breakpoint
CREATE UNIQUE INDEX "online_payments_school_payment_unique" ON "online_payments" USING btree ("school_id","provider","payment_id") WHERE "online_payments"."payment_id" is not null;--> statement-breakpoint
CREATE INDEX "online_payments_school_captured_idx" ON "online_payments" USING btree ("school_id","captured_at");--> statement-breakpoint
CREATE INDEX "online_payments_school_link_idx" ON "online_payments" USING btree ("school_id","link_id");--> statement-breakpoint
CREATE UNIQUE INDEX "payment_links_token_unique" ON "payment_links" USING btree ("link_token");--> statement-breakpoint
CREATE INDEX "payment_links_school_student_idx" ON "payment_links" USING btree ("school_id","student_id","created_at");--> statement-breakpoint
CREATE INDEX "payment_links_school_created_idx" ON "payment_links" USING btree ("school_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "school_payment_settings_webhook_key_unique" ON "school_payment_settings" USING btree ("webhook_key");--> statement-breakpoint
CREATE INDEX "student_credit_entries_school_student_idx" ON "student_credit_entries" USING btree ("school_id","student_id","at");--> statement-breakpoint
CREATE INDEX "student_credit_entries_school_at_idx" ON "student_credit_entries" USING btree ("school_id","at");--> statement-breakpoint
CREATE UNIQUE INDEX "upi_confirmations_school_reference_unique" ON "upi_confirmations" USING btree ("school_id","upi_reference");--> statement-breakpoint
CREATE INDEX "upi_confirmations_school_status_idx" ON "upi_confirmations" USING btree ("school_id","status","submitted_at");