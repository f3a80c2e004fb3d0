-- A lookup by name walks the students page's index in class order and tests each student's name and
-- admission number (decision 0057): with the admission number in the index too, it tests them without
-- reading each student's row (decision 0081).
DROP INDEX "students_school_class_order_idx";--> statement-breakpoint
CREATE INDEX "students_school_class_order_idx" ON "students" USING btree ("school_id","status",coalesce(array_position(ARRAY['Nursery', 'LKG', 'UKG', 'Class 1', 'Class 2', 'Class 3', 'Class 4', 'Class 5', 'Class 6', 'Class 7', 'Class 8', 'Class 9', 'Class 10', 'Class 11', 'Class 12']::text[], "class_name"), 99),"section","roll_number","name","class_name","id","admission_number");