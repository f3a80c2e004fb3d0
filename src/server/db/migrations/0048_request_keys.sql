-- Ruling 5 for the last adds without a key: the Add Student dialog's clientId (a second press or a
-- retry after a lost answer finds the student the first made) and the operator's subscription actions
-- (Extend, Change Plan, Record Payment), whose keys are kept with the action under the school's row lock.
CREATE TABLE "subscription_request_keys" (
	"school_id" uuid NOT NULL,
	"client_id" text NOT NULL,
	"action" text NOT NULL,
	"request_hash" text NOT NULL,
	"payment_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "students" ADD COLUMN "client_id" text;--> statement-breakpoint
ALTER TABLE "subscription_request_keys" ADD CONSTRAINT "subscription_request_keys_school_id_schools_id_fk" FOREIGN KEY ("school_id") REFERENCES "public"."schools"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscription_request_keys" ADD CONSTRAINT "subscription_request_keys_payment_id_subscription_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."subscription_payments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "subscription_request_keys_unique" ON "subscription_request_keys" USING btree ("school_id","client_id");--> statement-breakpoint
CREATE UNIQUE INDEX "students_school_client_idx" ON "students" USING btree ("school_id","client_id") WHERE "students"."client_id" is not null;