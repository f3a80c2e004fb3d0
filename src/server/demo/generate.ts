/**
 * The school generator shared by `npm run seed:demo` (300 students, written through the API so
 * every receipt is a real one) and the benchmark (2,000 and 60,000 students, written set-based).
 *
 * Everything is a pure function of a student's ordinal `i` (their admission number), so the two
 * writers produce the same kind of school: who the student is, which class and section, the bus
 * fee, which months and yearly fees they pay, when and how. The SQL in `insertRoster` and
 * `insertSessionFees` spells the same arithmetic as the functions below; keep them side by side.
 */
import { sql } from 'drizzle-orm';
import { CLASSES, SECTIONS, type ClassName } from '../../domain/classes';
import { sessionMonths } from '../../domain/sessions';
import type { Db } from '../db/client';
import { classFeeStructures } from '../db/schema';
import { syncRollCounters } from '../students/queries';

export const BOYS = [
  'Aarav', 'Vivaan', 'Aditya', 'Vihaan', 'Arjun', 'Sai', 'Reyansh', 'Ayaan', 'Krishna', 'Ishaan', 'Shaurya', 'Atharv',
  'Advik', 'Pranav', 'Advaith', 'Aryan', 'Dhruv', 'Kabir', 'Ritvik', 'Aniket', 'Rohan', 'Karthik', 'Faizan', 'Imran',
  'Harsh', 'Yash', 'Manav', 'Siddharth', 'Tanmay', 'Nikhil', 'Rahul', 'Gurpreet', 'Omkar', 'Zaid', 'Tenzin', 'Varun',
];
export const GIRLS = [
  'Saanvi', 'Aanya', 'Aadhya', 'Aaradhya', 'Ananya', 'Pari', 'Diya', 'Myra', 'Sara', 'Ira', 'Anika', 'Navya',
  'Kiara', 'Meera', 'Riya', 'Ishita', 'Kavya', 'Aditi', 'Sneha', 'Pooja', 'Nandini', 'Shreya', 'Fatima', 'Zoya',
  'Harleen', 'Lakshmi', 'Divya', 'Tanvi', 'Mahira', 'Simran', 'Gauri', 'Mehak', 'Sana', 'Avni', 'Tara', 'Jhanvi',
];
export const SURNAMES = [
  'Sharma', 'Verma', 'Gupta', 'Singh', 'Kumar', 'Patel', 'Reddy', 'Iyer', 'Nair', 'Menon', 'Rao', 'Joshi',
  'Mehta', 'Shah', 'Desai', 'Kulkarni', 'Chatterjee', 'Banerjee', 'Mukherjee', 'Das', 'Bose', 'Ghosh', 'Sinha', 'Mishra',
  'Pandey', 'Tiwari', 'Yadav', 'Chauhan', 'Rathore', 'Bhat', 'Dar', 'Wani', 'Khan', 'Qureshi', 'Ansari', 'Pillai',
  'Naidu', 'Gill', 'Sandhu', 'Kaur', 'Thakur', 'Saxena',
];
export const FATHERS = [
  'Rajesh', 'Suresh', 'Ramesh', 'Mahesh', 'Anil', 'Sunil', 'Vijay', 'Sanjay', 'Ajay', 'Manoj', 'Ashok', 'Deepak',
  'Rakesh', 'Mukesh', 'Arvind', 'Naveen', 'Prakash', 'Satish', 'Ravi', 'Mohan', 'Irfan', 'Bashir', 'Harpreet', 'Venkatesh',
];
export const MOTHERS = [
  'Sunita', 'Anita', 'Kavita', 'Rekha', 'Seema', 'Neha', 'Priya', 'Pooja', 'Geeta', 'Meena', 'Asha', 'Usha',
  'Lata', 'Shabnam', 'Rubina', 'Manpreet', 'Lakshmi', 'Radha', 'Shalini', 'Deepa', 'Nirmala', 'Jyoti', 'Kiran', 'Vandana',
];
export const TOWNS = ['Rajbagh', 'Lal Chowk', 'Karan Nagar', 'Bemina', 'Hyderpora', 'Nowgam', 'Sonwar', 'Jawahar Nagar', 'Rawalpora', 'Shivpora'];

/** Sections per class: about 45 students in each, A to F. */
export const sectionsPerClass = (count: number) => Math.max(1, Math.min(SECTIONS.length, Math.ceil(count / CLASSES.length / 45)));

export interface GeneratedStudent {
  admissionNumber: string;
  name: string;
  className: ClassName;
  section: string;
  /** rupees per month */
  busFee: number;
  fatherName: string;
  motherName: string;
  parentPhone: string;
  residence: string;
}

const pick = <T>(list: readonly T[], n: number) => list[((n % list.length) + list.length) % list.length]!;

/** Student number `i` (1-based) of a school of `count`. `className` forces the class (new Nursery admissions). */
export function studentAt(i: number, count: number, className?: ClassName): GeneratedStudent {
  const surname = pick(SURNAMES, i * 7);
  const first = i % 2 === 0 ? pick(BOYS, Math.floor(i / 2)) : pick(GIRLS, Math.floor(i / 2));
  return {
    admissionNumber: `ADM-${String(i).padStart(6, '0')}`,
    name: `${first} ${surname}`,
    className: className ?? pick(CLASSES, i),
    section: pick(SECTIONS, Math.floor(i / CLASSES.length) % sectionsPerClass(count)),
    busFee: i % 3 === 0 ? 0 : 500 + (i % 5) * 100,
    fatherName: `${pick(FATHERS, i * 5)} ${surname}`,
    motherName: `${pick(MOTHERS, i * 3)} ${surname}`,
    parentPhone: `9${String(700000000 + ((i * 7919) % 299999999)).padStart(9, '0')}`,
    residence: pick(TOWNS, i),
  };
}

/** Class fees in rupees: higher classes pay more; each later session is 8% dearer. */
export function structureOf(className: ClassName, yearsAfterFirst: number) {
  const k = CLASSES.indexOf(className);
  const up = (rupees: number) => Math.round((rupees * (100 + 8 * yearsAfterFirst)) / 100);
  return {
    monthlyTuitionFee: up(800 + k * 100),
    yearlyFee: up(3000 + k * 200),
    examFee: up(400 + k * 50),
    booksFee: up(1200 + k * 150),
    uniformFee: up(1500),
    miscFee: up(300),
  };
}

/**
 * Whether student `i` pays month `m` (0 = the session's first month) of a session whose fees run
 * to month `last`: one in thirteen stops paying after June, one in seven is two months behind,
 * and a scattering miss a month.
 */
export function paysMonth(i: number, m: number, last: number): boolean {
  if (i % 13 === 0 && m >= 3) return false;
  if (i % 7 === 0 && m > last - 2) return false;
  return (i * 31 + m * 17) % 23 !== 0;
}

/** Whether student `i` pays yearly head `h` (0 admission, 1 exam, 2 books, 3 uniform, 4 misc). */
export function paysYearly(i: number, h: number): boolean {
  if (i % 11 === 0) return false;
  return h === 0 || (i + h) % 9 !== 0;
}

/** One in 37 gets a tenth off tuition (a concession the ledger records as a discount). */
export const tuitionShare = (i: number) => (i % 37 === 0 ? 90 : 100);

/** The day of the month they pay on. */
export const payDay = (i: number) => 1 + (i % 25);

// ---------------------------------------------------------------------------------------------
// Set-based writers (benchmark scale)
// ---------------------------------------------------------------------------------------------

const textArray = (list: readonly string[]) => `{${list.map((s) => `"${s}"`).join(',')}}`;

/**
 * Students `from`…`to` of a school of `count`, enrolled in `sessionId`, in one INSERT … SELECT
 * over generate_series (the same formulas as `studentAt`), plus their enrollments and roll counters.
 */
export async function insertRoster(
  db: Db,
  { schoolId, sessionId, from, to, count, className, enrolledOn }: { schoolId: string; sessionId: string; from: number; to: number; count: number; className?: ClassName; enrolledOn: string },
): Promise<void> {
  const sections = sectionsPerClass(count);
  const classExpr = className ? sql`${className}::text` : sql`(${textArray(CLASSES)}::text[])[(i % ${CLASSES.length}) + 1]`;
  await db.execute(sql`
    with gen as (
      select i,
             (${textArray(SURNAMES)}::text[])[((i * 7) % ${SURNAMES.length}) + 1] as surname,
             case when i % 2 = 0 then (${textArray(BOYS)}::text[])[((i / 2) % ${BOYS.length}) + 1]
                  else (${textArray(GIRLS)}::text[])[((i / 2) % ${GIRLS.length}) + 1] end as first,
             ${classExpr} as class_name,
             (${textArray(SECTIONS)}::text[])[((i / ${CLASSES.length}) % ${sections}) + 1] as section
      from generate_series(${from}::int, ${to}::int) as i
    ),
    numbered as (
      select gen.*, row_number() over (partition by class_name, section order by i)::int as roll from gen
    )
    insert into students (school_id, admission_number, name, class_name, section, roll_number, session_id, father_name, mother_name,
                          mobile_number, parent_name, parent_phone, residence, monthly_bus_fee_paise, enrollment_date)
    select ${schoolId}::uuid, 'ADM-' || lpad(i::text, 6, '0'), first || ' ' || surname, class_name, section, roll, ${sessionId}::uuid,
           (${textArray(FATHERS)}::text[])[((i * 5) % ${FATHERS.length}) + 1] || ' ' || surname,
           (${textArray(MOTHERS)}::text[])[((i * 3) % ${MOTHERS.length}) + 1] || ' ' || surname,
           '9' || lpad((700000000 + ((i::bigint * 7919) % 299999999))::text, 9, '0'),
           (${textArray(FATHERS)}::text[])[((i * 5) % ${FATHERS.length}) + 1] || ' ' || surname,
           '9' || lpad((700000000 + ((i::bigint * 7919) % 299999999))::text, 9, '0'),
           (${textArray(TOWNS)}::text[])[(i % ${TOWNS.length}) + 1],
           case when i % 3 = 0 then 0 else (500 + (i % 5) * 100) * 100 end,
           ${enrolledOn}::date
    from numbered`);
  await db.execute(sql`
    insert into student_enrollments (school_id, student_id, session_id, class_name, section, roll_number)
    select school_id, id, session_id, class_name, section, roll_number from students
    where school_id = ${schoolId}::uuid and admission_number between ${`ADM-${String(from).padStart(6, '0')}`} and ${`ADM-${String(to).padStart(6, '0')}`}`);
  await syncRollCounters(db, { schoolId, sessionId });
}

/** Every class's fees for a session (15 rows). */
export async function insertStructures(db: Db, { schoolId, academicYear, yearsAfterFirst }: { schoolId: string; academicYear: string; yearsAfterFirst: number }) {
  await db.insert(classFeeStructures).values(
    CLASSES.map((className) => {
      const s = structureOf(className, yearsAfterFirst);
      return {
        schoolId,
        className,
        academicYear,
        monthlyTuitionFeePaise: s.monthlyTuitionFee * 100,
        yearlyFeePaise: s.yearlyFee * 100,
        examFeePaise: s.examFee * 100,
        booksFeePaise: s.booksFee * 100,
        uniformFeePaise: s.uniformFee * 100,
        miscFeePaise: s.miscFee * 100,
      };
    }),
  );
}

/**
 * A session's fees for every student enrolled in it, set-based: a MON receipt per student and
 * quarter with a tuition and a bus line per month paid, and a YRL receipt per student with the
 * yearly heads paid, numbered consecutively per prefix (ruling 4) with the counters set to match.
 * Months `0 … last` of the session are generated; no date is after `today`.
 */
export async function insertSessionFees(
  db: Db,
  { schoolId, session, last, today }: { schoolId: string; session: { id: string; name: string; startDate: string; endDate: string }; last: number; today: string },
): Promise<void> {
  const keys = sessionMonths(session.startDate, session.endDate).map((m) => m.key).slice(0, last + 1);
  const short = `${session.name.slice(0, 4)}-${session.name.slice(-2)}`;
  await db.transaction(async (tx) => {
    await tx.execute(sql`drop table if exists gen_paid`);
    await tx.execute(sql`drop table if exists gen_receipts`);
    // every (student, month) paid, with amounts and date
    await tx.execute(sql`
      create temp table gen_paid on commit drop as
      select s.id as student_id, substr(s.admission_number, 5)::int as i, e.class_name, e.section, e.roll_number, s.name,
             m.m, m.m / 3 as q, (${`{${keys.join(',')}}`}::text[])[m.m + 1] as period,
             (fs.monthly_tuition_fee_paise * (case when substr(s.admission_number, 5)::int % 37 = 0 then 90 else 100 end) / 100 / 100) * 100 as tuition,
             s.monthly_bus_fee_paise as bus,
             least(to_date((${`{${keys.join(',')}}`}::text[])[m.m + 1], 'YYYY-MM') + (substr(s.admission_number, 5)::int % 25), ${today}::date) as paid_on
      from student_enrollments e
      join students s on s.id = e.student_id
      join class_fee_structures fs on fs.school_id = e.school_id and fs.class_name = e.class_name and fs.academic_year = ${session.name}
      cross join generate_series(0, ${last}::int) as m(m)
      where e.school_id = ${schoolId}::uuid and e.session_id = ${session.id}::uuid
        and not (substr(s.admission_number, 5)::int % 13 = 0 and m.m >= 3)
        and not (substr(s.admission_number, 5)::int % 7 = 0 and m.m > ${last} - 2)
        and (substr(s.admission_number, 5)::int * 31 + m.m * 17) % 23 <> 0`);
    await tx.execute(sql`
      create temp table gen_receipts on commit drop as
      select gen_random_uuid() as id, student_id, q, min(i) as i, min(class_name) as class_name, min(section) as section,
             min(roll_number) as roll_number, min(name) as name, sum(tuition + bus) as total, max(paid_on) as received_on,
             row_number() over (order by q, min(i)) as seq
      from gen_paid group by student_id, q`);
    await tx.execute(sql`
      insert into receipts (id, school_id, receipt_number, prefix, academic_year, sequence, source, student_id, session_id, student_name,
                            class_name, section, roll_number, payment_mode, received_by, received_at, total_paise, created_at)
      select id, ${schoolId}::uuid, 'MON/' || ${short} || '/' || lpad(seq::text, 6, '0'), 'MON', ${session.name}, seq, 'monthly', student_id,
             ${session.id}::uuid, name, class_name, section, roll_number, 'cash', 'Office', received_on + time '04:30', total, received_on + time '04:30'
      from gen_receipts`);
    await tx.execute(sql`
      insert into receipt_lines (school_id, receipt_id, student_id, session_id, head, period, amount_paise, paid_on, created_at)
      select ${schoolId}::uuid, r.id, p.student_id, ${session.id}::uuid, h.head, p.period, case h.head when 'tuition' then p.tuition else p.bus end,
             p.paid_on, p.paid_on + time '04:30'
      from gen_paid p
      join gen_receipts r on r.student_id = p.student_id and r.q = p.q
      cross join (values ('tuition'), ('bus')) as h(head)
      where (h.head = 'tuition' and p.tuition > 0) or (h.head = 'bus' and p.bus > 0)`);
    // yearly heads: one receipt per student with whatever they paid, in the session's first month
    await tx.execute(sql`drop table if exists gen_yearly`);
    await tx.execute(sql`
      create temp table gen_yearly on commit drop as
      select gen_random_uuid() as id, s.id as student_id, substr(s.admission_number, 5)::int as i, e.class_name, e.section, e.roll_number, s.name,
             least(${session.startDate}::date + (substr(s.admission_number, 5)::int % 25), ${today}::date) as paid_on,
             array[fs.yearly_fee_paise, fs.exam_fee_paise, fs.books_fee_paise, fs.uniform_fee_paise, fs.misc_fee_paise] as amounts
      from student_enrollments e
      join students s on s.id = e.student_id
      join class_fee_structures fs on fs.school_id = e.school_id and fs.class_name = e.class_name and fs.academic_year = ${session.name}
      where e.school_id = ${schoolId}::uuid and e.session_id = ${session.id}::uuid and substr(s.admission_number, 5)::int % 11 <> 0`);
    await tx.execute(sql`drop table if exists gen_yearly_lines`);
    await tx.execute(sql`
      create temp table gen_yearly_lines on commit drop as
      select y.id as receipt_id, y.student_id, h.h, (array['admission', 'exam', 'books', 'uniform', 'misc'])[h.h + 1] as head, y.amounts[h.h + 1] as amount, y.paid_on
      from gen_yearly y cross join generate_series(0, 4) as h(h)
      where (h.h = 0 or (y.i + h.h) % 9 <> 0) and y.amounts[h.h + 1] > 0`);
    await tx.execute(sql`
      insert into receipts (id, school_id, receipt_number, prefix, academic_year, sequence, source, student_id, session_id, student_name,
                            class_name, section, roll_number, payment_mode, received_by, received_at, total_paise, created_at)
      select y.id, ${schoolId}::uuid, 'YRL/' || ${short} || '/' || lpad(y.seq::text, 6, '0'), 'YRL', ${session.name}, y.seq, 'yearly', y.student_id,
             ${session.id}::uuid, y.name, y.class_name, y.section, y.roll_number, 'cash', 'Office', y.paid_on + time '04:30', t.total, y.paid_on + time '04:30'
      from (select *, row_number() over (order by i) as seq from gen_yearly) y
      join (select receipt_id, sum(amount) as total from gen_yearly_lines group by receipt_id) t on t.receipt_id = y.id`);
    await tx.execute(sql`
      insert into receipt_lines (school_id, receipt_id, student_id, session_id, head, period, amount_paise, paid_on, created_at)
      select ${schoolId}::uuid, receipt_id, student_id, ${session.id}::uuid, head, null, amount, paid_on, paid_on + time '04:30' from gen_yearly_lines`);
    await tx.execute(sql`
      insert into receipt_counters (school_id, prefix, academic_year, last_number)
      select ${schoolId}::uuid, prefix, ${session.name}, max(sequence) from receipts
      where school_id = ${schoolId}::uuid and academic_year = ${session.name} group by prefix
      on conflict (school_id, prefix, academic_year) do update set last_number = excluded.last_number`);
  });
  // millions of new rows: let the planner see them before anything reads them (a rollover next)
  await db.execute(sql`analyze students, student_enrollments, receipts, receipt_lines`);
}

/** A year of expenses: salaries, utilities, supplies and the rest, month by month, scaled to the school. */
export function expensesFor(session: { startDate: string; endDate: string }, students: number, lastMonth: number, today: string) {
  const months = sessionMonths(session.startDate, session.endDate).slice(0, lastMonth + 1);
  const scale = Math.max(1, Math.round(students / 300));
  const out: Array<{ category: string; description: string; amount: number; date: string }> = [];
  months.forEach((m, k) => {
    const day = (d: number) => {
      const date = `${m.key}-${String(d).padStart(2, '0')}`;
      return date > today ? today : date;
    };
    out.push({ category: 'Salaries', description: `Teaching and office staff salaries, ${m.month} ${m.year}`, amount: 285000 * scale, date: day(1) });
    out.push({ category: 'Utilities', description: `Electricity and water, ${m.month}`, amount: 6200 * scale + k * 150, date: day(8) });
    out.push({ category: 'Transportation', description: `Diesel for school buses, ${m.month}`, amount: 18500 * scale + (k % 3) * 900, date: day(12) });
    if (k % 2 === 0) out.push({ category: 'Supplies', description: 'Chalk, registers and printer paper', amount: 3400 * scale, date: day(15) });
    if (k % 3 === 1) out.push({ category: 'Maintenance', description: 'Classroom repairs and painting', amount: 12500 * scale, date: day(20) });
    if (k === 0) out.push({ category: 'Insurance', description: 'Annual building and bus insurance', amount: 42000 * scale, date: day(5) });
    if (k === 1) out.push({ category: 'Equipment', description: 'Science lab equipment', amount: 36500 * scale, date: day(18) });
    if (k === 4) out.push({ category: 'Marketing', description: 'Admission pamphlets and newspaper advertisement', amount: 9800 * scale, date: day(22) });
    if (k % 4 === 2) out.push({ category: 'Food & Beverages', description: 'Annual day and sports day refreshments', amount: 7600 * scale, date: day(25) });
    if (k === 6) out.push({ category: 'Professional Services', description: 'Chartered accountant audit fee', amount: 25000, date: day(10) });
    if (k % 6 === 0) out.push({ category: 'Rent', description: 'Playground lease', amount: 30000, date: day(3) });
  });
  return out.filter((e) => e.date >= session.startDate);
}
