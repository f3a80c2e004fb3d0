-- Saved money is never edited (ruling 3): the database itself refuses to change or delete a
-- receipt line, and lets a receipt make only the one move from live to cancelled.
CREATE OR REPLACE FUNCTION ledger_refuse_line_change() RETURNS trigger AS $$
BEGIN
  RAISE EXCEPTION 'receipt lines are never changed or deleted; cancel the receipt instead'
    USING ERRCODE = 'integrity_constraint_violation';
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER receipt_lines_immutable
  BEFORE UPDATE OR DELETE ON receipt_lines
  FOR EACH ROW EXECUTE FUNCTION ledger_refuse_line_change();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION ledger_guard_receipt() RETURNS trigger AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    RAISE EXCEPTION 'receipts are never deleted; cancel the receipt instead'
      USING ERRCODE = 'integrity_constraint_violation';
  END IF;
  IF OLD.status <> 'live' OR NEW.status <> 'cancelled'
     OR (to_jsonb(NEW) - 'status' - 'cancelled_at' - 'cancelled_by' - 'cancel_reason')
        IS DISTINCT FROM (to_jsonb(OLD) - 'status' - 'cancelled_at' - 'cancelled_by' - 'cancel_reason') THEN
    RAISE EXCEPTION 'a receipt can only be cancelled, once'
      USING ERRCODE = 'integrity_constraint_violation';
  END IF;
  RETURN NEW;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER receipts_guard
  BEFORE UPDATE OR DELETE ON receipts
  FOR EACH ROW EXECUTE FUNCTION ledger_guard_receipt();
