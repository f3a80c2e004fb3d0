import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { normaliseClass, normaliseSection } from '../../domain/classes';
import { indiaDate } from '../../domain/sessions';
import { addStudentSchema, classSectionLabel, SECTION_MESSAGE, STUDENT_KEY_REUSED_MESSAGE, updateStudentSchema } from '../../domain/students';
import { requireSchool, schoolIdOf } from '../auth/context';
import { errorDto } from '../auth/dto';
import { students } from '../db/schema';
import { audit } from '../lib/audit';
import { badRequest, conflict, HttpError, notFound } from '../lib/errors';
import { isUuid } from '../lib/ids';
import { isUniqueViolation } from '../lib/pg-errors';
import { requireSessionByYear } from '../fees/queries';
import { createDefaultSession, findActiveSession } from '../sessions/queries';
import { admissionTakenMessage } from './bulk-import';
import { registerBulkImport } from './bulk-route';
import { compiledSerializer } from '../lib/compiled-serializer';
import { constraintOf, isForeignKeyViolation } from './db-errors';
import {
  aadhaarColumns,
  addsTheSameStudent,
  allocateRollNumbers,
  bumpRollCounter,
  classSummary,
  deleteStudent,
  findStudent,
  findStudentByClientId,
  findStudentWithFees,
  insertStudents,
  rosterEntryDto,
  rosterJson,
  rosterStudentJson,
  listStudents,
  lockStudentAdds,
  newStudentValues,
  peekNextRollNumber,
  planLimitMessage,
  planRoom,
  rollGroupKey,
  rollHolder,
  rosterStudentDto,
  studentDto,
  studentHasMoney,
  takenAdmissionNumbers,
  toStudentDto,
  upsertEnrollment,
  type StudentRow,
} from './queries';
import { refreshBalances } from '../balances/refresh';
import { lockSchoolLedgerShared, lockStudentLedger } from '../fees/locks';

const NOT_FOUND = 'Student not found';
export const DELETED_MESSAGE = 'Student has been successfully deleted from the system.';
export const HAS_MONEY_MESSAGE = 'This student has fee records and cannot be deleted. Use Discharge instead so no money disappears.';
const tags = ['students'];
const security = [{ bearer: [] }];
const idParams = z.object({ id: z.string() });
// also the answer of a role without students.edit (ruling 32): the error and the permission it lacks
const planLimitDto = z.object({ error: z.string(), upgradeRequired: z.boolean().optional() }).passthrough();

/** What the audit log keeps of a student: never the Aadhaar number, only its mask. */
function auditView(s: StudentRow) {
  return toStudentDto({ student: s, monthlyFee: null, admissionFee: null });
}

function classOrThrow(raw: string) {
  const name = normaliseClass(raw);
  if (!name) throw badRequest(`Unknown class "${raw.slice(0, 40)}"`);
  return name;
}
function sectionOrThrow(raw: string) {
  const section = normaliseSection(raw);
  if (!section) throw badRequest(SECTION_MESSAGE);
  return section;
}

const academicYearQuery = z.string().max(40).optional().describe('2025-2026, 2025-26 or a session id');

export async function studentRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, clock, cipher } = app.deps;
  /** The session an `academicYear` query names; none when it is absent, 400 when it names none. */
  const sessionNamed = async (schoolId: string, year: string | undefined) => (year?.trim() ? requireSessionByYear(db, { schoolId, year }) : undefined);

  async function studentOr404(schoolId: string, id: string) {
    const row = isUuid(id) ? await findStudentWithFees(db, { schoolId, id }) : undefined;
    if (!row) throw notFound(NOT_FOUND);
    return toStudentDto(row);
  }

  app.get(
    '/api/students',
    {
      onRequest: requireSchool,
      config: { permission: 'students.view' },
      schema: {
        tags,
        summary: 'Students in class order, section and roll number; filter by class, section, name or admission number',
        description:
          'class accepts any spelling (1st, IST, Class 1); q matches a name (contains, any case) or an admission number; status active (default), passout or all. ' +
          'limit defaults to 5000 (at most 10000); the header X-Total-Count carries how many students match in all when the page is not full, ' +
          'and for a full page when withTotal=true is asked (counting a whole large school costs more than the page). rollNumber with class and section finds one roll number. ' +
          'academicYear (2025-2026, 2025-26 or a session id) lists the students who sat in that session, with the class, section and roll number ' +
          'they had in it and that class’s fees of that session; class and section then filter by that placement.',
        security,
        querystring: z.object({
          class: z.string().max(40).optional(),
          section: z.string().max(5).optional(),
          q: z.string().max(200).optional(),
          rollNumber: z.coerce.number().int().min(1).max(1_000_000).optional().describe('one roll number (with class and section: the lookup by roll number)'),
          status: z.enum(['active', 'passout', 'all']).optional().default('active'),
          academicYear: academicYearQuery,
          limit: z.coerce.number().int().min(1).max(10_000, 'limit can be at most 10000').optional().default(5000),
          offset: z.coerce.number().int().min(0).optional().default(0),
          withTotal: z.enum(['true', 'false']).optional().describe('true: X-Total-Count also for a full page'),
        }),
        response: { 200: z.array(studentDto), 400: errorDto },
      },
      serializerCompiler: compiledSerializer,
    },
    async (request, reply) => {
      const q = request.query;
      const schoolId = schoolIdOf(request);
      const { json, total } = await listStudents(db, {
        schoolId,
        session: await sessionNamed(schoolId, q.academicYear),
        className: q.class?.trim() ? classOrThrow(q.class) : undefined,
        section: q.section?.trim() ? sectionOrThrow(q.section) : undefined,
        q: q.q?.trim() || undefined,
        rollNumber: q.rollNumber,
        status: q.status,
        limit: q.limit,
        offset: q.offset,
        withTotal: q.withTotal === 'true',
      });
      if (total !== undefined) reply.header('X-Total-Count', String(total));
      // the page's JSON as PostgreSQL wrote it (listStudents): sent as it is, not parsed and written again
      return reply.type('application/json; charset=utf-8').send(json as never);
    },
  );

  app.get(
    '/api/students/roster',
    {
      onRequest: requireSchool,
      config: { permission: 'students.view' },
      schema: {
        tags,
        summary: 'One class and section in roll order, as the fee screens\' roll-number picker shows it (id, name, roll number)',
        description:
          'class accepts any spelling; status active (default), passout or all. academicYear (2025-2026, 2025-26 or a session id): the students who sat ' +
          'in that class and section in that session, with that session\'s roll numbers. The picked student\'s class, fees and session: ' +
          'GET /api/students/roster/:id.',
        security,
        querystring: z.object({
          class: z.string().min(1, 'Class is required').max(40),
          section: z.string().min(1, 'Section is required').max(5),
          status: z.enum(['active', 'passout', 'all']).optional().default('active'),
          academicYear: academicYearQuery,
        }),
        response: { 200: z.array(rosterEntryDto), 400: errorDto },
      },
      serializerCompiler: compiledSerializer,
    },
    async (request, reply) => {
      const q = request.query;
      const schoolId = schoolIdOf(request);
      // the answer's JSON as PostgreSQL wrote it (rosterJson): sent as it is, not parsed and written again
      const json = await rosterJson(db, {
        schoolId,
        className: classOrThrow(q.class),
        section: sectionOrThrow(q.section),
        status: q.status,
        session: await sessionNamed(schoolId, q.academicYear),
      });
      return reply.type('application/json; charset=utf-8').send(json as never);
    },
  );

  app.get(
    '/api/students/roster/:id',
    {
      onRequest: requireSchool,
      config: { permission: 'students.view' },
      schema: {
        tags,
        summary: 'The student picked from a roster, with what the fee screens and their dialogs show (class, section, roll, father, session, fees)',
        description:
          'academicYear (2025-2026, 2025-26 or a session id): where the student sat in that session, with that session\'s class fees; 404 when ' +
          'they were not in it. Without it: where they sit today.',
        security,
        params: idParams,
        querystring: z.object({ academicYear: academicYearQuery }),
        response: { 200: rosterStudentDto, 404: errorDto },
      },
      serializerCompiler: compiledSerializer,
    },
    async (request, reply) => {
      const schoolId = schoolIdOf(request);
      const { id } = request.params;
      const json = isUuid(id)
        ? await rosterStudentJson(db, { schoolId, id, session: await sessionNamed(schoolId, request.query.academicYear) })
        : undefined;
      if (json === undefined) throw notFound(NOT_FOUND);
      return reply.type('application/json; charset=utf-8').send(json as never);
    },
  );

  app.get(
    '/api/students/class-summary',
    {
      onRequest: requireSchool,
      config: { permission: 'students.view' },
      schema: {
        tags,
        summary: 'Active students per class and section, in class order (pickers, classes with student counts)',
        description: 'academicYear (2025-2026, 2025-26 or a session id): where the active students sat in that session.',
        security,
        querystring: z.object({ academicYear: academicYearQuery }),
        response: { 200: z.array(z.object({ class: z.string(), section: z.string(), count: z.number().int() })) },
      },
    },
    async (request) => {
      const schoolId = schoolIdOf(request);
      return classSummary(db, { schoolId, sessionId: (await sessionNamed(schoolId, request.query.academicYear))?.id });
    },
  );

  app.get(
    '/api/students/next-roll-number/:class/:section',
    {
      onRequest: requireSchool,
      config: { permission: 'students.edit' },
      schema: {
        tags,
        summary: 'The roll number the next student added to this class and section of the active session would get (allocates nothing)',
        security,
        params: z.object({ class: z.string().max(40), section: z.string().max(5) }),
        response: { 200: z.object({ nextRollNumber: z.number().int() }), 400: errorDto },
      },
    },
    async (request) => {
      const schoolId = schoolIdOf(request);
      const className = classOrThrow(request.params.class);
      const section = sectionOrThrow(request.params.section);
      const session = await findActiveSession(db, { schoolId });
      if (!session) return { nextRollNumber: 1 };
      return { nextRollNumber: await peekNextRollNumber(db, { schoolId, sessionId: session.id, className, section }) };
    },
  );

  app.get(
    '/api/students/:id',
    {
      onRequest: requireSchool,
      config: { permission: 'students.view' },
      schema: { tags, summary: 'One student', security, params: idParams, response: { 200: studentDto, 404: errorDto } },
    },
    async (request) => studentOr404(schoolIdOf(request), request.params.id),
  );

  app.post(
    '/api/students',
    {
      onRequest: requireSchool,
      config: { permission: 'students.edit' },
      schema: {
        tags,
        summary: 'Add a student; the roll number is allocated by the server per class, section and session',
        description:
          'Messages: "Student name is required", "Class is required", "Section is required", "Aadhar number must be 12 digits", ' +
          '"Invalid mobile number format", "Invalid email format". rollNumber in the body is ignored: the next number of the class and section ' +
          'in the active session is allocated (the active session is created, April to March, when the school has none). ' +
          '403 { error, upgradeRequired: true } at the plan\'s student limit; 409 for an admission number already used. ' +
          'Idempotent on clientId (ruling 5): the same clientId with the same fields answers 200 with the student the first request ' +
          `added and adds nothing; with other fields (or after that student was edited), 409 "${STUDENT_KEY_REUSED_MESSAGE}"`,
        security,
        body: addStudentSchema,
        response: { 200: studentDto, 201: studentDto, 400: errorDto, 402: errorDto, 403: planLimitDto, 409: errorDto },
      },
    },
    async (request, reply) => {
      const schoolId = schoolIdOf(request);
      const { clientId, ...input } = request.body;
      const now = clock.now();
      const today = indiaDate(now);
      /** The student the key's first request added, as this request's answer: 409 when it asked for another student. */
      const replayOf = (first: StudentRow) => {
        if (!addsTheSameStudent(first, input, cipher)) throw conflict(STUDENT_KEY_REUSED_MESSAGE);
        return { id: first.id, replayed: true };
      };
      let outcome: { id: string; replayed: boolean };
      try {
        outcome = await db.transaction(async (tx) => {
          await lockStudentAdds(tx, schoolId);
          // every add holds the lock: a request with the key that came first has committed its student
          const first = clientId ? await findStudentByClientId(tx, { schoolId, clientId }) : undefined;
          if (first) return replayOf(first);
          // the new student's running balances are computed from the fees read after this (decision 0107)
          await lockSchoolLedgerShared(tx, { schoolId });
          const room = await planRoom(tx, { schoolId });
          if (room.limit !== null && room.active >= room.limit) {
            throw new HttpError(403, planLimitMessage(room), { upgradeRequired: true });
          }
          if (input.admissionNumber && (await takenAdmissionNumbers(tx, { schoolId, numbers: [input.admissionNumber] })).size > 0) {
            throw conflict(admissionTakenMessage(input.admissionNumber));
          }
          const session = await createDefaultSession(tx, { schoolId, today });
          const group = { className: input.class, section: input.section };
          const rolls = await allocateRollNumbers(tx, { schoolId, sessionId: session.id, groups: [{ ...group, count: 1 }] });
          const placement = { sessionId: session.id, rollNumber: rolls.get(rollGroupKey(group))!, today, now };
          // the key is this request's alone: an import or a promotion never writes one
          const values = { ...newStudentValues(schoolId, input, placement, cipher), clientId };
          const [row] = await insertStudents(tx, [values]);
          await audit(tx, request, { action: 'student.create', entity: 'student', entityId: row!.id, after: auditView(row!) });
          return { id: row!.id, replayed: false };
        });
      } catch (error) {
        if (isUniqueViolation(error) && constraintOf(error) === 'students_school_admission_unique' && input.admissionNumber) {
          throw conflict(admissionTakenMessage(input.admissionNumber));
        }
        // not reached while every add holds the lock; a writer that did not is answered the same way
        if (isUniqueViolation(error) && constraintOf(error) === 'students_school_client_idx' && clientId) {
          const first = await findStudentByClientId(db, { schoolId, clientId });
          if (!first) throw error;
          outcome = replayOf(first);
        } else throw error;
      }
      reply.status(outcome.replayed ? 200 : 201);
      return studentOr404(schoolId, outcome.id);
    },
  );

  app.put(
    '/api/students/:id',
    {
      onRequest: requireSchool,
      config: { permission: 'students.edit' },
      schema: {
        tags,
        summary: "Change a student's details, class, section or roll number",
        description:
          '"Please fill in all required fields (Name, Class, Section, Roll Number)". A roll number already held in the target class and section of ' +
          'the session answers 409 "Roll number N is already taken in Class X-A". aadharNumber: the masked value keeps the stored number, ' +
          'a new 12-digit number replaces it, an empty string clears it.',
        security,
        params: idParams,
        body: updateStudentSchema,
        response: { 200: studentDto, 400: errorDto, 402: errorDto, 404: errorDto, 409: errorDto },
      },
    },
    async (request) => {
      const schoolId = schoolIdOf(request);
      const { id } = request.params;
      if (!isUuid(id)) throw notFound(NOT_FOUND);
      const input = request.body;
      const now = clock.now();
      const label = classSectionLabel(input.class, input.section);
      const rollTaken = `Roll number ${input.rollNumber} is already taken in ${label}`;
      try {
        await db.transaction(async (tx) => {
          // a write for one student, as a receipt is: a change of the fees waits for it or is read by it (decision 0107)
          await lockStudentLedger(tx, { schoolId, studentId: id });
          const before = await findStudent(tx, { schoolId, id });
          if (!before) throw notFound(NOT_FOUND);
          const sessionId = before.sessionId ?? (await createDefaultSession(tx, { schoolId, today: indiaDate(now) })).id;
          const placement = { className: input.class, section: input.section, rollNumber: input.rollNumber };
          // the class and section's counter row first, as an add takes it before its enrollment: an edit
          // that wrote the enrollment first deadlocked with an add being handed the same number (decision
          // 0107); and the number's holder is then read after any add or edit numbering in the group
          await bumpRollCounter(tx, { schoolId, sessionId, ...placement });
          if (await rollHolder(tx, { schoolId, sessionId, ...placement, exceptId: id })) throw conflict(rollTaken);
          if (
            input.admissionNumber &&
            input.admissionNumber !== before.admissionNumber &&
            (await takenAdmissionNumbers(tx, { schoolId, numbers: [input.admissionNumber], exceptId: id })).size > 0
          ) {
            throw conflict(admissionTakenMessage(input.admissionNumber));
          }
          const aadhaar = input.aadharNumber === undefined ? {} : aadhaarColumns(cipher, input.aadharNumber);
          const [after] = await tx
            .update(students)
            .set({
              name: input.name,
              className: input.class,
              section: input.section,
              rollNumber: input.rollNumber,
              sessionId,
              admissionNumber: input.admissionNumber,
              fatherName: input.fatherName,
              motherName: input.motherName,
              dateOfBirth: input.dateOfBirth,
              mobileNumber: input.mobileNumber,
              ...aadhaar,
              residence: input.residence,
              parentName: input.parentName,
              parentPhone: input.parentPhone,
              parentEmail: input.parentEmail,
              parentWhatsApp: input.parentWhatsApp,
              monthlyBusFeePaise: input.monthlyBusFee,
              enrollmentDate: input.enrollmentDate ?? before.enrollmentDate,
              feesFromMonth: input.feesFromMonth === undefined ? before.feesFromMonth : input.feesFromMonth,
              enableSmsReminders: input.enableSmsReminders,
              enableWhatsappReminders: input.enableWhatsappReminders,
              reminderPreference: input.reminderPreference,
              updatedAt: now,
            })
            .where(and(eq(students.schoolId, schoolId), eq(students.id, id)))
            .returning();
          await upsertEnrollment(tx, { schoolId, studentId: id, sessionId, ...placement, now });
          // class, section, bus fee and fees-from month all change what is due
          await refreshBalances(tx, { schoolId, studentIds: [id] });
          await audit(tx, request, {
            action: 'student.update',
            entity: 'student',
            entityId: id,
            before: auditView(before),
            after: { ...auditView(after!), aadhaarChanged: input.aadharNumber !== undefined },
          });
        });
      } catch (error) {
        if (isUniqueViolation(error)) {
          const name = constraintOf(error);
          if (name === 'student_enrollments_roll_unique') throw conflict(rollTaken);
          if (name === 'students_school_admission_unique' && input.admissionNumber) throw conflict(admissionTakenMessage(input.admissionNumber));
        }
        throw error;
      }
      return studentOr404(schoolId, id);
    },
  );

  app.post(
    '/api/students/:id/reveal-aadhaar',
    {
      onRequest: requireSchool,
      // revealing reads data; a school whose plan ended may still read its records (ruling 14)
      config: { permission: 'students.edit', allowWhenExpired: true },
      schema: {
        tags,
        summary: "Show a student's full Aadhaar number; every reveal is written to the audit log",
        security,
        params: idParams,
        response: { 200: z.object({ aadharNumber: z.string().nullable() }), 404: errorDto },
      },
    },
    async (request) => {
      const schoolId = schoolIdOf(request);
      const { id } = request.params;
      if (!isUuid(id)) throw notFound(NOT_FOUND);
      return db.transaction(async (tx) => {
        const student = await findStudent(tx, { schoolId, id });
        if (!student) throw notFound(NOT_FOUND);
        const aadharNumber = student.aadhaarEncrypted ? cipher.decrypt(student.aadhaarEncrypted) : null;
        await audit(tx, request, {
          action: 'student.aadhaar_reveal',
          entity: 'student',
          entityId: id,
          after: { name: student.name, aadhaar: student.aadhaarLast4 ? `XXXX XXXX ${student.aadhaarLast4}` : null },
        });
        return { aadharNumber };
      });
    },
  );

  app.delete(
    '/api/students/:id',
    {
      onRequest: requireSchool,
      config: { permission: 'students.edit' },
      schema: {
        tags,
        summary: 'Delete a student who has no fee records (irreversible)',
        description: `409 "${HAS_MONEY_MESSAGE}" once any receipt or carried balance exists for the student.`,
        security,
        params: idParams,
        response: { 200: z.object({ message: z.string() }), 402: errorDto, 404: errorDto, 409: errorDto },
      },
    },
    async (request) => {
      const schoolId = schoolIdOf(request);
      const { id } = request.params;
      if (!isUuid(id)) throw notFound(NOT_FOUND);
      try {
        await db.transaction(async (tx) => {
          await lockStudentAdds(tx, schoolId);
          // and the student's ledger lock, which a receipt or an edit of the student holds while it writes:
          // one that read the student before this delete commits first, and is seen here (its receipt
          // answers 409 below) instead of meeting a deleted student. Student adds, then the ledger: the
          // order Add Student and an import's batches take them in
          await lockStudentLedger(tx, { schoolId, studentId: id });
          const student = await findStudent(tx, { schoolId, id });
          if (!student) throw notFound(NOT_FOUND);
          if (await studentHasMoney(tx, { schoolId, studentId: id })) throw conflict(HAS_MONEY_MESSAGE);
          await deleteStudent(tx, { schoolId, studentId: id });
          await audit(tx, request, { action: 'student.delete', entity: 'student', entityId: id, before: auditView(student) });
        });
      } catch (error) {
        // any other record that still names the student (a passout entry, a payment link) keeps it
        if (isForeignKeyViolation(error)) throw conflict(HAS_MONEY_MESSAGE);
        throw error;
      }
      return { message: DELETED_MESSAGE };
    },
  );

  registerBulkImport(app);
}
