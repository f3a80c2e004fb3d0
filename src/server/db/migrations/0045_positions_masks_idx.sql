-- Decision 0095: the Pending Fees report's distinct runs of months due, one index probe each.
-- At 60,000 students the statement read every owing row (58,000, 130-210 ms) for some 22 runs.
CREATE INDEX "student_positions_masks_idx" ON "student_positions" USING btree ("school_id","first_key","due_mask") WHERE "student_positions"."active" and "student_positions"."owed" > 0;
