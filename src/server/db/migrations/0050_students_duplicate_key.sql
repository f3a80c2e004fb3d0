-- An import's duplicate check finds each row's matches by its normalised name, father's name and class
-- (duplicateKeySql) instead of reading every student of the rows' classes, batch by batch (decision 0110).
CREATE INDEX "students_school_duplicate_key_idx" ON "students" USING btree ("school_id",(lower(regexp_replace(btrim("name"), '\s+', ' ', 'g')) || '|' || lower(regexp_replace(btrim("father_name"), '\s+', ' ', 'g')) || '|' || "class_name"));
