-- Room on each page of the running balances for a row's next version (decision 0085): a payment
-- rewrites its student's rows, and on a full page the new version went to another page with a new
-- entry in every index (5% of the session rows' updates stayed on their page, 90% with this room).
-- Pages written from now on keep it; pages already full get it as vacuum frees them.
ALTER TABLE "student_session_balances" SET (fillfactor = 80);--> statement-breakpoint
ALTER TABLE "student_balances" SET (fillfactor = 90);
