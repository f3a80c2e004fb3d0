-- Each student's whole-school row also holds its line of the defaulters list as JSON text (decision
-- 0061). The rows are derived data: emptied here, every school's are rebuilt by its next reader (no
-- school_positions row means a full build), which writes the new columns.
DELETE FROM "student_positions";--> statement-breakpoint
DELETE FROM "school_positions";--> statement-breakpoint
ALTER TABLE "student_positions" ADD COLUMN "list_head" text NOT NULL;--> statement-breakpoint
ALTER TABLE "student_positions" ADD COLUMN "list_tail" text NOT NULL;
