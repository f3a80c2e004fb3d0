CREATE TABLE "school_logos" (
	"school_id" uuid PRIMARY KEY NOT NULL,
	"content_type" text NOT NULL,
	"image" "bytea" NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "school_logos" ADD CONSTRAINT "school_logos_school_id_schools_id_fk" FOREIGN KEY ("school_id") REFERENCES "public"."schools"("id") ON DELETE no action ON UPDATE no action;