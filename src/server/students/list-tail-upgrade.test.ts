import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { migrateDatabase, migrationsFolder, type Db } from '../db/client';
import { seedPlans } from '../plans/queries';
import { migrationsCopy, openTestDatabase } from '../test/harness';

const scratch = mkdtempSync(path.join(tmpdir(), 'ledger-list-tail-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** How many migrations came after the release before 0046: that release's database is the one upgraded. */
const sinceListTail = (() => {
  const { entries } = JSON.parse(readFileSync(path.join(migrationsFolder, 'meta', '_journal.json'), 'utf8')) as { entries: Array<{ tag: string }> };
  return entries.length - entries.findIndex((e) => e.tag.startsWith('0046_'));
})();

const SCHOOL = '00000000-0000-4000-8000-0000000000a1';
const SESSION = '00000000-0000-4000-8000-0000000000b1';

/** Each student's fields from the admission number to the creation time, as the students page lists them. */
const listedTails = async (db: Db) =>
  (await db.execute<{ name: string; tail: string }>(sql`select name, list_tail as tail from students order by name`)).rows.map((r) => ({
    name: r.name,
    fields: JSON.parse(`{${r.tail.slice(1)}}`) as Record<string, unknown>,
  }));

describe('the students of a database from before migration 0046 (decision 0104)', () => {
  it('are each listed with their own fields once upgraded, and the rewritten table is vacuumed', { timeout: 120_000 }, async () => {
    const database = await openTestDatabase({ empty: true, max: 2 });
    try {
      // the release before: every migration before 0046
      await migrateDatabase(database, migrationsCopy(path.join(scratch, 'before'), { drop: sinceListTail }));
      const { db } = database;
      await seedPlans(db);
      await db.execute(sql`insert into schools (id, name, email) values (${SCHOOL}, 'Upgrade School', 'u@example.com')`);
      await db.execute(sql`
        insert into academic_sessions (id, school_id, name, start_date, end_date, is_active)
        values (${SESSION}, ${SCHOOL}, '2026-2027', '2026-04-01', '2027-03-31', true)`);
      await db.execute(sql`
        insert into students (school_id, admission_number, name, class_name, section, roll_number, session_id, father_name, mother_name,
          date_of_birth, mobile_number, aadhaar_last4, residence, parent_name, parent_phone, parent_email, parent_whatsapp,
          monthly_bus_fee_paise, enrollment_date, fees_from_month, status, enable_sms_reminders, enable_whatsapp_reminders,
          reminder_preference, created_at)
        values
          (${SCHOOL}, 'K/3 "b"', 'रिया कौल', 'Class 3', 'B', 1, ${SESSION}, 'Sanjay' || chr(9) || 'Koul', 'Neha Koul',
           '2017-01-31', '+919812345678', '0124', 'Line 1' || chr(10) || 'Bemina', 'Neha Koul', '9812345678', 'neha@example.com', '9812345670',
           72575, '2026-06-15', '2026-07', 'active', false, true, 'whatsapp', '2026-04-10 05:30:00.123789+00'),
          (${SCHOOL}, null, 'Anil Bhat', 'Class 7', 'C', 2, null, '', '', null, '', null, '', '', '', '', '', 0, null, null, 'passout', true, true, 'both',
           '2026-05-01 10:00:00+05:30')`);
      // and 3,000 more, vacuumed, as a live school's table is
      await db.execute(sql`
        insert into students (school_id, name, class_name, section, roll_number)
        select ${SCHOOL}, 'Student ' || g, 'Class ' || (g % 12 + 1), 'A', g + 10 from generate_series(1, 3000) g`);
      await db.execute(sql`vacuum (analyze) students`);

      const vacuumed = await migrateDatabase(database);
      expect(vacuumed).toContain('students');
      const [anil, riya] = (await listedTails(db)).filter((s) => !s.name.startsWith('Student '));
      expect(riya).toEqual({
        name: 'रिया कौल',
        fields: {
          admissionNumber: 'K/3 "b"',
          fatherName: 'Sanjay\tKoul',
          motherName: 'Neha Koul',
          dateOfBirth: '2017-01-31',
          mobileNumber: '+919812345678',
          aadharNumber: 'XXXX XXXX 0124',
          residence: 'Line 1\nBemina',
          parentName: 'Neha Koul',
          parentPhone: '9812345678',
          parentEmail: 'neha@example.com',
          parentWhatsApp: '9812345670',
          monthlyBusFee: '725.75',
          enrollmentDate: '2026-06-15',
          feesFromMonth: '2026-07',
          status: 'active',
          sessionId: SESSION,
          enableSmsReminders: false,
          enableWhatsappReminders: true,
          reminderPreference: 'whatsapp',
          createdAt: '2026-04-10T05:30:00.123Z',
        },
      });
      // studentDto's order, which the page's JSON keeps
      expect(Object.keys(riya!.fields)).toEqual([
        'admissionNumber', 'fatherName', 'motherName', 'dateOfBirth', 'mobileNumber', 'aadharNumber', 'residence', 'parentName', 'parentPhone',
        'parentEmail', 'parentWhatsApp', 'monthlyBusFee', 'enrollmentDate', 'feesFromMonth', 'status', 'sessionId', 'enableSmsReminders',
        'enableWhatsappReminders', 'reminderPreference', 'createdAt',
      ]);
      expect(anil!.fields).toMatchObject({
        admissionNumber: null, dateOfBirth: null, aadharNumber: null, monthlyBusFee: '0.00', enrollmentDate: null, feesFromMonth: null,
        status: 'passout', sessionId: null, createdAt: '2026-05-01T04:30:00.000Z',
      });
      const filled = await db.execute<{ n: number }>(sql`select count(*)::int as n from students where list_tail like ',"admissionNumber":null,%'`);
      expect(filled.rows[0]!.n).toBe(3001);

      // every row written once more, then vacuumed: the page's index-only scans read no rows of the table
      const seen = (await db.execute<{ pages: number; visible: number }>(sql`select relpages as pages, relallvisible as visible from pg_class where oid = 'students'::regclass`)).rows[0]!;
      expect(seen.pages).toBeGreaterThan(10);
      expect(seen.visible).toBeGreaterThan(seen.pages * 0.9);

      // a row written after the upgrade gets its fields from the trigger, and a change to it moves them
      await db.execute(sql`insert into students (school_id, name, class_name, roll_number, monthly_bus_fee_paise) values (${SCHOOL}, 'Zoya Mir', 'Class 1', 9000, 50000)`);
      await db.execute(sql`update students set monthly_bus_fee_paise = 60050, father_name = 'Imran "Mir"' where name = 'Zoya Mir'`);
      const zoya = (await listedTails(db)).find((s) => s.name === 'Zoya Mir')!;
      expect(zoya.fields).toMatchObject({ monthlyBusFee: '600.50', fatherName: 'Imran "Mir"', status: 'active' });
    } finally {
      await database.close();
    }
  });
});
