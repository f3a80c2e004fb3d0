import { refreshBalances } from '../balances/refresh';
import { studentCreditEntries } from '../db/schema';
import { CLASS5_2025, seedSession, seedStructure, seedStudent } from '../fees/test-fixtures';
import { signUpSchool, type TestContext } from '../test/harness';

/**
 * For tests of a student's credit (ruling 27): a school in 2025-2026 with Class 5's fees and one
 * student on the bus (₹600 a month) holding ₹1,500 received online beyond the dues, as a capture
 * after a counter payment leaves it. The test's clock should be in November 2025.
 */
export async function studentWithCredit(ctx: TestContext, name: string) {
  const school = await signUpSchool(ctx);
  const db = ctx.database.db;
  const session = await seedSession(db, { schoolId: school.schoolId });
  await seedStructure(db, { schoolId: school.schoolId, ...CLASS5_2025 });
  const studentId = (await seedStudent(db, { schoolId: school.schoolId, sessionId: session.id, name, className: 'Class 5', busFee: 600 })).id;
  await db.insert(studentCreditEntries).values({
    schoolId: school.schoolId,
    studentId,
    at: new Date('2025-11-10T06:00:00.000Z'),
    kind: 'online_excess',
    amountPaise: 150000,
    reason: 'Paid online after the counter',
    byName: 'Parent',
  });
  await refreshBalances(db, { schoolId: school.schoolId, studentIds: [studentId] });
  return { school, studentId };
}
