-- Ruling 28: give every running paid period a value to credit an upgrade from. Before this release
-- plan_start_date..plan_end_date was exactly the last paid order's period, so that order's price
-- (less its first-time discount) is its value; a plan set by hand without a payment is worth 0.
UPDATE "schools" AS s
SET "plan_value_from" = coalesce(s."plan_start_date", s."updated_at"),
    "plan_value_paise" = coalesce((
      SELECT p."base_paise" - p."discount_paise"
      FROM "subscription_payments" p
      WHERE p."school_id" = s."id" AND p."status" = 'paid' AND p."plan_id" = s."subscription_plan"
      ORDER BY p."paid_at" DESC NULLS LAST
      LIMIT 1
    ), 0)
WHERE s."subscription_status" IN ('active', 'cancelled') AND s."plan_end_date" IS NOT NULL AND s."plan_value_paise" IS NULL;
--> statement-breakpoint
-- Ruling 29: the payment-only "quick" tokens (a school id was enough to get one) are retired.
UPDATE "auth_sessions" SET "revoked_at" = now() WHERE "kind" = 'quick' AND "revoked_at" IS NULL;
