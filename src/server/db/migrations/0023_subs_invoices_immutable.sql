-- An issued tax invoice is never changed or deleted (ruling 33, like receipts under ruling 3):
-- it copies the supplier's and the school's details at issue, and its number is never reused.
CREATE OR REPLACE FUNCTION invoices_refuse_change() RETURNS trigger AS $$
BEGIN
  RAISE EXCEPTION 'tax invoices are never changed or deleted'
    USING ERRCODE = 'integrity_constraint_violation';
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER invoices_immutable
  BEFORE UPDATE OR DELETE ON invoices
  FOR EACH ROW EXECUTE FUNCTION invoices_refuse_change();
