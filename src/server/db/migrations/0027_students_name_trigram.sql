-- The lookup by part of a name (ilike '%…%') reads a trigram index where pg_trgm exists (PostgreSQL);
-- the embedded database has no pg_trgm loaded, so there the same migration leaves the index out and
-- the lookup scans the one school's rows (decision 0042). One migration, both databases.
DO $$
BEGIN
  CREATE EXTENSION IF NOT EXISTS pg_trgm;
EXCEPTION WHEN others THEN
  RAISE NOTICE 'pg_trgm is not available: the name lookup scans the school''s students';
END $$;--> statement-breakpoint
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN
    CREATE INDEX IF NOT EXISTS students_name_trgm_idx ON students USING gin (name gin_trgm_ops);
  END IF;
END $$;
