ALTER TABLE "schools" ADD COLUMN "board" text DEFAULT 'cbse' NOT NULL;--> statement-breakpoint
ALTER TABLE "students" ADD COLUMN "aadhaar_hash" text;--> statement-breakpoint
CREATE INDEX "students_school_aadhaar_hash_idx" ON "students" USING btree ("school_id","aadhaar_hash") WHERE "students"."aadhaar_hash" is not null;