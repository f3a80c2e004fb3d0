import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { formatShortDateIN } from '../../domain/dates';
import { addSubjectSchema, bulkResultsSchema, classParam, renameSubjectSchema, reorderSubjectsSchema } from '../../domain/results';
import { assertSubjectsCovered, assertTeacherCovers, assertTeacherCoversWholeClass } from '../staff/teacher-scope';
import { requireSchool, schoolIdOf } from '../auth/context';
import { errorDto } from '../auth/dto';
import { audit } from '../lib/audit';
import { conflict } from '../lib/errors';
import { isForeignKeyViolation } from '../lib/pg-errors';
import { sendPdf } from '../lib/pdf';
import { findSchoolLogo } from '../schools/queries';
import { auditChanges, planBulkSave, writePlannedRows } from './bulk-save';
import { bulkAnswerDto, bulkErrorDto, classQuery, classResultsDto, marksheetQuery, subjectDto, subjectListDto, toResultDto, toSubjectDto } from './dto';
import { buildMarksheets, marksheetDto } from './marksheet';
import { marksheetsPdf } from './marksheet-pdf';
import { listResults, listRoster, requireSession } from './queries';
import { addSubject, listAllSubjectNames, listSubjects, removeSubject, renameSubject, reorderSubjects } from './subjects';

const tags = ['results'];
const security = [{ bearer: [] }];
const idParams = z.object({ id: z.string().max(64) });
const pdfNote = 'Answers application/pdf (a download): A4 landscape, 10 mm margins, one student per page.';

/**
 * A save whose marks met a foreign key at its write: a subject (or a student) the save had checked
 * was removed by someone else before the marks were stored. Nothing of the save is kept.
 */
function removedMeanwhile(error: unknown): never {
  if (isForeignKeyViolation(error)) throw conflict('A subject or student of these marks was removed while they were being saved. Reload the page and enter them again.');
  throw error;
}

/** Academic results (operations §2 Results screen, §7 /api/results*; issue 6). */
export async function resultRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, clock } = app.deps;

  // ——— subjects ———

  app.get(
    '/api/results/subjects',
    {
      onRequest: requireSchool,
      config: { permission: 'results.view' },
      schema: {
        tags,
        security,
        summary: "The school's subject list for a class",
        description:
          'With `class`, that class\'s subjects in order (seeded on first use with the defaults of the school\'s board — cbse, icse, state or jkbose, set in Settings — for the class\'s band: pre-primary, primary, middle, secondary, senior secondary). Without it, every subject name the school uses.',
        querystring: z.object({ class: classParam.optional() }),
        response: { 200: subjectListDto, 400: errorDto },
      },
    },
    async (request) => {
      const schoolId = schoolIdOf(request);
      const className = request.query.class;
      if (!className) {
        const names = await listAllSubjectNames(db, { schoolId });
        return { class: null, subjects: [], names };
      }
      const rows = await db.transaction((tx) => listSubjects(tx, { schoolId, classNames: [className] }));
      return { class: className, subjects: rows.map(toSubjectDto), names: rows.map((s) => s.name) };
    },
  );

  app.post(
    '/api/results/subjects',
    {
      onRequest: requireSchool,
      config: { permission: 'results.manage' },
      schema: {
        tags,
        security,
        summary: "Add a subject to a class's list",
        description: 'It goes last in the order. 409 when the class already has a subject of that name.',
        body: addSubjectSchema,
        response: { 201: subjectDto, 400: errorDto, 402: errorDto, 409: errorDto },
      },
    },
    async (request, reply) => {
      const schoolId = schoolIdOf(request);
      const row = await db.transaction(async (tx) => {
        const created = await addSubject(tx, { schoolId, className: request.body.class, name: request.body.name });
        await audit(tx, request, { action: 'results.subject.add', entity: 'subject', entityId: created.id, after: { class: created.className, name: created.name } });
        return created;
      });
      return reply.status(201).send(toSubjectDto(row));
    },
  );

  app.put(
    '/api/results/subjects/order',
    {
      onRequest: requireSchool,
      config: { permission: 'results.manage' },
      schema: {
        tags,
        security,
        summary: "Reorder a class's subjects",
        description: 'Give every subject id of the class once, first to last. Answers the list in its new order.',
        body: reorderSubjectsSchema,
        response: { 200: subjectListDto, 400: errorDto, 402: errorDto },
      },
    },
    async (request) => {
      const schoolId = schoolIdOf(request);
      const { class: className, subjectIds } = request.body;
      const rows = await db.transaction(async (tx) => {
        const list = await reorderSubjects(tx, { schoolId, className, subjectIds, now: clock.now() });
        await audit(tx, request, { action: 'results.subject.reorder', entity: 'subject', after: { class: className, order: list.map((s) => s.name) } });
        return list;
      });
      return { class: className, subjects: rows.map(toSubjectDto), names: rows.map((s) => s.name) };
    },
  );

  app.put(
    '/api/results/subjects/:id',
    {
      onRequest: requireSchool,
      config: { permission: 'results.manage' },
      schema: {
        tags,
        security,
        summary: 'Rename a subject',
        description: 'Marks already entered stay with the subject under its new name. 409 when the class already has that name.',
        params: idParams,
        body: renameSubjectSchema,
        response: { 200: subjectDto, 400: errorDto, 402: errorDto, 404: errorDto, 409: errorDto },
      },
    },
    async (request) => {
      const schoolId = schoolIdOf(request);
      const { after } = await db.transaction(async (tx) => {
        const change = await renameSubject(tx, { schoolId, id: request.params.id, name: request.body.name, now: clock.now() });
        await audit(tx, request, { action: 'results.subject.rename', entity: 'subject', entityId: change.after.id, before: { name: change.before.name }, after: { name: change.after.name } });
        return change;
      });
      return toSubjectDto(after);
    },
  );

  app.delete(
    '/api/results/subjects/:id',
    {
      onRequest: requireSchool,
      config: { permission: 'results.manage' },
      schema: {
        tags,
        security,
        summary: "Remove a subject from its class's list",
        description: 'Refused with 409 while any marks are entered for it.',
        params: idParams,
        response: { 200: z.object({ message: z.string() }), 402: errorDto, 404: errorDto, 409: errorDto },
      },
    },
    async (request) => {
      const schoolId = schoolIdOf(request);
      const removed = await db.transaction(async (tx) => {
        const row = await removeSubject(tx, { schoolId, id: request.params.id });
        await audit(tx, request, { action: 'results.subject.remove', entity: 'subject', entityId: row.id, before: { class: row.className, name: row.name } });
        return row;
      });
      return { message: `${removed.name} was removed from ${removed.className}` };
    },
  );

  // ——— marks ———

  app.get(
    '/api/results',
    {
      onRequest: requireSchool,
      config: { permission: 'results.view' },
      schema: {
        tags,
        security,
        summary: 'The marks of a class and section in a session',
        description:
          'Students are those who sat in the class and section in that session (a promoted student\'s old marks stay with the old session and class). Marks are strings with halves ("4.5"); FA, totalMarks, percent and grade are computed by the server.',
        querystring: classQuery,
        response: { 200: classResultsDto, 400: errorDto, 404: errorDto },
      },
    },
    async (request) => {
      const schoolId = schoolIdOf(request);
      const { class: className, section, academicSession } = request.query;
      const mayTeach = await assertTeacherCovers(db, request, { className, section });
      const session = await requireSession(db, { schoolId, name: academicSession });
      const [roster, subjectRows] = await db.transaction(async (tx) => [
        await listRoster(tx, { schoolId, sessionId: session.id, className, section }),
        await listSubjects(tx, { schoolId, classNames: [className] }),
      ] as const);
      const stored = await listResults(db, { schoolId, sessionId: session.id, studentIds: roster.map((s) => s.id) });
      return {
        academicSession: session.name,
        class: className,
        section,
        // a teacher sees the subjects assigned to them only (ruling 32)
        subjects: subjectRows.filter((s) => mayTeach.allows(s.name)).map((s) => ({ id: s.id, name: s.name })),
        students: roster.map((s) => ({ id: s.id, name: s.name, rollNumber: s.rollNumber, admissionNumber: s.admissionNumber })),
        results: stored.filter((r) => mayTeach.allows(r.subject)).map((r) => toResultDto(r, session.name)),
      };
    },
  );

  app.post(
    '/api/results/bulk',
    {
      onRequest: requireSchool,
      config: { permission: 'results.marks' },
      schema: {
        tags,
        security,
        summary: 'Save marks for many students and subjects at once',
        description:
          'Stores only entries whose marks differ from what is stored (upsert per school, student, session and subject): re-sending the same marks changes nothing. Every entry is checked first; one bad entry (a mark above its field\'s maximum — F1–F6 5, CA 20, SA 50 — negative, not a number or not a whole or half mark; an unknown student or subject; a student not in that class and session) answers 400 naming the student, subject and field, and nothing of the request is stored. FA, totalMarks and grade sent by the client are ignored: the server computes them. ' +
          'An entry may carry `loaded`: its eight marks as the page loaded them (same form as the marks). Then a mark sent as loaded was not touched and keeps what is stored now, and only the marks that differ from `loaded` are written, so two people entering different marks of one student and subject keep both. A mark that differs from `loaded` whose stored value someone else changed since (it is now neither the loaded nor the sent value) answers 409 naming the student, subject and field (`entry`, and every such mark under `fields`), and nothing of the request is stored. Without `loaded` all eight marks are written as sent. ' +
          '409 too when a subject or student of the marks was removed while they were being saved.',
        body: bulkResultsSchema,
        response: { 200: bulkAnswerDto, 400: bulkErrorDto, 402: errorDto, 409: bulkErrorDto },
      },
    },
    async (request) => {
      const schoolId = schoolIdOf(request);
      const input = request.body;
      const validateOnly = input.validateOnly === true;
      const mayTeach = await assertTeacherCovers(db, request, { className: input.class, section: input.section });
      assertSubjectsCovered(mayTeach, input.results.map((r) => r.subject));
      return db.transaction(async (tx) => {
        const plan = await planBulkSave(tx, { schoolId, input, forWrite: !validateOnly });
        if (validateOnly) return { success: true as const, saved: plan.rows.length, unchanged: plan.unchanged, validateOnly };
        const saved = await writePlannedRows(tx, { schoolId, userId: request.auth?.userId ?? null, rows: plan.rows, now: clock.now() });
        if (saved > 0) {
          await audit(tx, request, {
            action: 'results.bulk_save',
            entity: 'results',
            after: { saved, unchanged: plan.unchanged, changes: auditChanges(plan.rows) },
          });
        }
        return { success: true as const, saved, unchanged: plan.unchanged, validateOnly };
      }).catch(removedMeanwhile);
    },
  );

  // ——— marksheets ———

  app.get(
    '/api/results/marksheet',
    {
      onRequest: requireSchool,
      config: { permission: 'results.view' },
      schema: {
        tags,
        security,
        summary: "One student's marksheet (Student Report Card)",
        querystring: marksheetQuery,
        response: { 200: marksheetDto, 400: errorDto, 404: errorDto },
      },
    },
    async (request) => {
      const schoolId = schoolIdOf(request);
      const { class: className, section, academicSession, rollNumber } = request.query;
      await assertTeacherCoversWholeClass(db, request, { className, section });
      const session = await requireSession(db, { schoolId, name: academicSession });
      const [sheet] = await db.transaction((tx) => buildMarksheets(tx, { schoolId, session, className, section, rollNumber }));
      return sheet!;
    },
  );

  app.get(
    '/api/results/marksheet.pdf',
    {
      onRequest: requireSchool,
      config: { permission: 'results.view' },
      schema: {
        tags,
        security,
        summary: "One student's marksheet as a PDF",
        description: pdfNote,
        querystring: marksheetQuery,
        response: { 400: errorDto, 404: errorDto },
      },
    },
    async (request, reply) => {
      const schoolId = schoolIdOf(request);
      const { class: className, section, academicSession, rollNumber } = request.query;
      await assertTeacherCoversWholeClass(db, request, { className, section });
      const session = await requireSession(db, { schoolId, name: academicSession });
      const sheets = await db.transaction((tx) => buildMarksheets(tx, { schoolId, session, className, section, rollNumber }));
      const pdf = await marksheetsPdf(sheets, { generatedOn: formatShortDateIN(clock.now())!, logo: (await findSchoolLogo(db, { schoolId }))?.image });
      return sendPdf(reply, pdf, `marksheet-${className}-${section}-roll-${rollNumber}-${session.name}.pdf`);
    },
  );

  app.get(
    '/api/results/marksheets.pdf',
    {
      onRequest: requireSchool,
      config: { permission: 'results.view' },
      schema: {
        tags,
        security,
        summary: 'The marksheets of a whole class and section as one PDF',
        description: `${pdfNote} Students in roll number order, for the end-of-term print run.`,
        querystring: classQuery,
        response: { 400: errorDto, 404: errorDto },
      },
    },
    async (request, reply) => {
      const schoolId = schoolIdOf(request);
      const { class: className, section, academicSession } = request.query;
      await assertTeacherCoversWholeClass(db, request, { className, section });
      const session = await requireSession(db, { schoolId, name: academicSession });
      const sheets = await db.transaction((tx) => buildMarksheets(tx, { schoolId, session, className, section }));
      const pdf = await marksheetsPdf(sheets, { generatedOn: formatShortDateIN(clock.now())!, logo: (await findSchoolLogo(db, { schoolId }))?.image });
      return sendPdf(reply, pdf, `marksheets-${className}-${section}-${session.name}.pdf`);
    },
  );
}
