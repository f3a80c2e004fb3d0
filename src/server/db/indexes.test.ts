import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from './client';
import { openTestDatabase } from '../test/harness';
import { rowsOf } from '../lib/sql-rows';

let database: Database;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(() => database.close());

/**
 * Indexes of tables with a school_id that do not start with it, each for a lookup that comes before
 * any school is known (a token, a gateway's id, a queue across schools) or for the operator's
 * whole-platform views. Anything else on a school's rows must start with school_id (the tenancy
 * standard, decision 0042): an index without it walks every school's rows.
 */
const ACROSS_SCHOOLS = new Map<string, string>([
  ['audit_log_created_idx', "the operator's audit view, newest first across schools"],
  ['auth_sessions_user_idx', "a user's sessions (sign-out everywhere); the user belongs to one school"],
  ['data_exports_pending_idx', 'the export queue, across schools'],
  ['invoices_payment_unique', 'one invoice per subscription payment'],
  ['invoices_year_sequence_unique', "gapless invoice numbers are the supplier's, across schools"],
  ['login_events_created_idx', "the operator's sign-in history"],
  ['login_events_email_created_idx', 'sign-in throttling by address, before any school is known'],
  ['mail_outbox_due_idx', 'the mail queue, across schools'],
  ['mail_outbox_failures_idx', "the operator's failed-mail view"],
  ['message_outbox_due_idx', 'the reminder queue, across schools'],
  ['message_outbox_failures_idx', "the operator's failed-message view"],
  ['message_outbox_provider_id_unique', "a gateway's delivery report names only its own message id"],
  ['payment_links_token_unique', "a parent's payment link names only its token"],
  ['school_payment_settings_webhook_key_unique', "a school gateway's webhook names only its key"],
  ['subscription_payments_order_unique', "Razorpay's order id, from its webhook"],
  ['subscription_payments_payment_unique', "Razorpay's payment id, from its webhook"],
  ['user_tokens_hash_unique', 'a reset or invitation link names only its token'],
  ['users_email_unique', 'sign-in by email address, before any school is known'],
]);

describe('indexes on school data', () => {
  it('every index of a table with school_id starts with school_id, but the listed lookups across schools', async () => {
    const rows = rowsOf<{ table_name: string; index_name: string; first_column: string | null }>(
      await database.db.execute(sql`
        select t.relname as table_name, i.relname as index_name, a.attname as first_column
        from pg_index x
        join pg_class i on i.oid = x.indexrelid
        join pg_class t on t.oid = x.indrelid
        join pg_namespace n on n.oid = t.relnamespace
        left join pg_attribute a on a.attrelid = t.oid and a.attnum = x.indkey[0]
        where n.nspname = 'public' and not x.indisprimary
          and exists (select 1 from pg_attribute c where c.attrelid = t.oid and c.attname = 'school_id' and not c.attisdropped)
        order by 1, 2`),
    );
    expect(rows.length).toBeGreaterThan(40);
    const offending = rows.filter((r) => r.first_column !== 'school_id' && !ACROSS_SCHOOLS.has(r.index_name)).map((r) => `${r.table_name}.${r.index_name} (${r.first_column ?? 'an expression'})`);
    expect(offending).toEqual([]);
  });

  it("the name lookup's trigram index, where the database has one, is per school", async () => {
    const trigram = rowsOf<{ indexname: string; indexdef: string }>(
      await database.db.execute(sql`select indexname, indexdef from pg_indexes where tablename = 'students' and indexdef like '%gin_trgm_ops%'`),
    );
    const extensions = rowsOf<{ extname: string }>(await database.db.execute(sql`select extname from pg_extension where extname in ('pg_trgm', 'btree_gin')`)).map((r) => r.extname);
    if (database.kind === 'postgres') expect(extensions.sort()).toEqual(['btree_gin', 'pg_trgm']);
    expect(trigram.map((t) => t.indexname)).toEqual(extensions.length === 2 ? ['students_school_name_trgm_idx'] : []);
    for (const t of trigram) expect(t.indexdef).toContain('USING gin (school_id, name gin_trgm_ops)');
  });
});
