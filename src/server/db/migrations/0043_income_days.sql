CREATE TABLE "income_days" (
	"school_id" uuid NOT NULL,
	"paid_on" date NOT NULL,
	"head" text NOT NULL,
	"slot" smallint NOT NULL,
	"amount_paise" bigint NOT NULL,
	"credit_paise" bigint NOT NULL,
	CONSTRAINT "income_days_school_id_paid_on_head_slot_pk" PRIMARY KEY("school_id","paid_on","head","slot")
);
--> statement-breakpoint
ALTER TABLE "income_days" ADD CONSTRAINT "income_days_school_id_schools_id_fk" FOREIGN KEY ("school_id") REFERENCES "public"."schools"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- Decision 0089: each day's income per head, kept by the database as lines are written and receipts
-- cancelled. A line is income when its receipt is live and not an opening entry (decision 0027);
-- a receipt's lines are written in the statement that writes it (or after it), never before, and a
-- statement-level AFTER trigger sees the whole statement's rows, so the join below finds the receipt.
-- Rows are added to in (school, day, head, slot) order, so two writers never take them crosswise.
CREATE FUNCTION income_days_add_lines() RETURNS trigger AS $$
BEGIN
  INSERT INTO income_days (school_id, paid_on, head, slot, amount_paise, credit_paise)
  SELECT c.school_id, c.paid_on, c.head, (hashtext(c.student_id::text) & 15)::smallint,
         sum(c.amount_paise), coalesce(sum(c.amount_paise) FILTER (WHERE r.payment_mode = 'credit'), 0)
  FROM changed c
  JOIN receipts r ON r.id = c.receipt_id AND r.school_id = c.school_id
  WHERE r.status = 'live' AND r.source <> 'opening'
  GROUP BY 1, 2, 3, 4
  ORDER BY 1, 2, 3, 4
  ON CONFLICT (school_id, paid_on, head, slot) DO UPDATE
    SET amount_paise = income_days.amount_paise + excluded.amount_paise,
        credit_paise = income_days.credit_paise + excluded.credit_paise;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
-- a receipt only ever moves from live to cancelled (migration 0004): its lines stop being income
CREATE FUNCTION income_days_cancel_receipts() RETURNS trigger AS $$
BEGIN
  INSERT INTO income_days (school_id, paid_on, head, slot, amount_paise, credit_paise)
  SELECT l.school_id, l.paid_on, l.head, (hashtext(l.student_id::text) & 15)::smallint,
         -sum(l.amount_paise), -coalesce(sum(l.amount_paise) FILTER (WHERE n.payment_mode = 'credit'), 0)
  FROM changed n
  JOIN gone o ON o.id = n.id
  JOIN receipt_lines l ON l.school_id = n.school_id AND l.receipt_id = n.id
  WHERE o.status = 'live' AND n.status = 'cancelled' AND n.source <> 'opening'
  GROUP BY 1, 2, 3, 4
  ORDER BY 1, 2, 3, 4
  ON CONFLICT (school_id, paid_on, head, slot) DO UPDATE
    SET amount_paise = income_days.amount_paise + excluded.amount_paise,
        credit_paise = income_days.credit_paise + excluded.credit_paise;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER receipt_lines_income_insert AFTER INSERT ON receipt_lines REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION income_days_add_lines();
--> statement-breakpoint
CREATE TRIGGER receipts_income_update AFTER UPDATE ON receipts REFERENCING OLD TABLE AS gone NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION income_days_cancel_receipts();
--> statement-breakpoint
-- the days already in the ledger
INSERT INTO income_days (school_id, paid_on, head, slot, amount_paise, credit_paise)
SELECT l.school_id, l.paid_on, l.head, (hashtext(l.student_id::text) & 15)::smallint,
       sum(l.amount_paise), coalesce(sum(l.amount_paise) FILTER (WHERE r.payment_mode = 'credit'), 0)
FROM receipt_lines l
JOIN receipts r ON r.id = l.receipt_id AND r.school_id = l.school_id
WHERE r.status = 'live' AND r.source <> 'opening'
GROUP BY 1, 2, 3, 4;
