import type { OutgoingHttpHeaders } from 'node:http';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { describeMatch, IMPORT_MESSAGES, MAX_IMPORT_ROWS, parseStudentCsv, rowsFromObjects, TEMPLATE_COLUMNS } from '../../domain/student-import';
import { indiaDate } from '../../domain/sessions';
import { requireSchool, schoolIdOf } from '../auth/context';
import { errorDto } from '../auth/dto';
import { badRequest } from '../lib/errors';
import { checkDuplicates, prepareRows, runImport, type ImportEvent } from './bulk-import';

/** 10,000 students of a few hundred characters each fit with room to spare. */
export const IMPORT_BODY_LIMIT = 10 * 1024 * 1024;
export const IMPORT_TOO_LARGE = 'The import is larger than 10 MB. Split the file into smaller files (at most 10,000 students each) and import them one by one.';

const bodySchema = z.object({
  csv: z.string({ error: 'csv must be the text of the CSV file' }).optional(),
  students: z
    .array(z.record(z.string(), z.unknown(), { error: 'Each student must be an object of column values' }), {
      error: 'students must be a list of rows',
    })
    .optional(),
  importAnyway: z
    .array(z.number({ error: 'importAnyway must list row numbers' }).int().min(2).max(MAX_IMPORT_ROWS + 1), { error: 'importAnyway must list row numbers' })
    .max(MAX_IMPORT_ROWS)
    .optional(),
});

const matchDto = z.object({
  rule: z.enum(['name-father-class', 'aadhaar']),
  row: z.number().int().optional(),
  studentId: z.string().optional(),
  name: z.string(),
  class: z.string(),
  section: z.string(),
  fatherName: z.string(),
});
const checkDto = z.object({
  total: z.number().int(),
  /** rows that pass every check and are not duplicates */
  ready: z.number().int(),
  errors: z.array(z.object({ row: z.number().int(), name: z.string(), reason: z.string(), reasons: z.array(z.string()) })),
  duplicates: z.array(z.object({ row: z.number().int(), name: z.string(), matches: z.array(matchDto), description: z.array(z.string()) })),
});

/** The rows of a request, read and checked: whole-file problems answer 400 here. */
function readRows(body: z.infer<typeof bodySchema>) {
  const { csv, students } = body;
  if (students === undefined && csv === undefined) throw badRequest(IMPORT_MESSAGES.empty);
  const parsed = students !== undefined ? rowsFromObjects(students) : parseStudentCsv(csv ?? '');
  if (!parsed.ok) throw badRequest(parsed.error);
  return prepareRows(parsed.rows);
}

export function registerBulkImport(fastify: FastifyInstance): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, clock, cipher } = app.deps;
  // both import routes take a file's worth of rows: their own body limit and its message
  const importLimits = {
    onRequest: requireSchool,
    config: { permission: 'students.edit' as const },
    bodyLimit: IMPORT_BODY_LIMIT,
    errorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
      if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return reply.status(413).send({ error: IMPORT_TOO_LARGE });
      return fastify.errorHandler(error, request, reply);
    },
  };

  app.post(
    '/api/students/bulk-check',
    {
      ...importLimits,
      schema: {
        tags: ['students'],
        summary: 'Check a bulk import before importing: every error of each row and the possible duplicates',
        description: [
          'Same body as /api/students/bulk-progress; nothing is written. errors: each refused row with all its problems.',
          'duplicates: rows that may be a student already in the school or earlier in the file (same name, father\'s name and class,',
          'or the same Aadhaar number), each with whom it matches. Send the rows to import anyway as importAnyway to bulk-progress.',
        ].join(' '),
        security: [{ bearer: [] }],
        body: bodySchema,
        response: { 200: checkDto, 400: errorDto, 402: errorDto, 413: errorDto },
      },
    },
    async (request) => {
      const schoolId = schoolIdOf(request);
      const prepared = readRows(request.body);
      const { duplicates } = await checkDuplicates(db, cipher, schoolId, prepared);
      const errors = prepared.filter((p) => !p.input).map((p) => ({ row: p.row, name: p.name, reason: (p.reasons ?? []).join('; '), reasons: p.reasons ?? [] }));
      return {
        total: prepared.length,
        ready: prepared.length - errors.length - duplicates.length,
        errors,
        duplicates: duplicates.map((d) => ({ ...d, description: d.matches.map(describeMatch) })),
      };
    },
  );

  app.post(
    '/api/students/bulk-progress',
    {
      ...importLimits,
      schema: {
        tags: ['students'],
        summary: 'Bulk import students from CSV text or parsed rows, streaming progress',
        description: [
          'Body: { csv: "<file text>" } (parsed on the server: quoted values may hold commas; headers are lowercased with other characters',
          'turned into underscores; aliases dob, address, bus_fee, email, admission_no; parent_phone fills a missing mobile number) or',
          `{ students: [ { ${TEMPLATE_COLUMNS.join(', ')} } ] } (camelCase keys work too).`,
          'Optional columns: admission_number, date_of_birth, enrollment_date. A roll_number column is ignored: roll numbers are allocated',
          'per class and section of the active session. Section defaults to A; class spellings are normalised.',
          'Before anything is imported, problems with the whole file answer JSON 400: "Please enter CSV data", "CSV must have header and',
          'at least one data row...", "No valid student data found...", "A single import can hold at most 10,000 students", broken',
          'quoting or a row over 10,000 characters; 413 over 10 MB.',
          'Then the answer is text/event-stream: lines `data: {json}` followed by a blank line, with',
          '{ type: "progress", processed, total, imported, errors (a count), currentStudent } at least every 2% of the rows, and finally',
          '{ type: "complete", result: { imported, errors: [{ row, name, reason, reasons }], skipped: [{ row, name, reason }], sections: [{ class, section, count }] } }.',
          'Every problem of a row is listed in reasons (reason joins them). Possible duplicates (same name, father\'s name and class, or the',
          'same Aadhaar number, in the file or in the school) are skipped unless their row number is in importAnyway; see POST /api/students/bulk-check.',
          'Each batch checks the school again as it is written, so a student added meanwhile (the same file imported twice at once) is skipped',
          'the same way.',
          'Row numbers count the header as row 1. Rows beyond the plan\'s student limit are errors with the upgrade reason.',
          'If the server fails midway: { type: "error", message, imported } (the rows before it stay imported).',
        ].join(' '),
        security: [{ bearer: [] }],
        body: bodySchema,
        response: { 200: z.string().describe('text/event-stream of data: lines'), 400: errorDto, 402: errorDto, 413: errorDto },
      },
    },
    async (request, reply) => {
      const schoolId = schoolIdOf(request);
      const prepared = readRows(request.body);
      // checked again here, whatever the preview said: the school may have changed since
      const { byRow } = await checkDuplicates(db, cipher, schoolId, prepared);
      const importAnyway = new Set(request.body.importAnyway ?? []);

      // From here the answer is a stream: errors become an `error` event, never a second reply.
      reply.hijack();
      const raw = reply.raw;
      raw.writeHead(200, {
        ...(reply.getHeaders() as OutgoingHttpHeaders),
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache, no-transform',
        'x-accel-buffering': 'no',
      });
      // a closed connection does not stop the import: the rows checked so far are imported as asked
      const emit = (event: ImportEvent) => {
        if (!raw.destroyed && !raw.writableEnded) raw.write(`data: ${JSON.stringify(event)}\n\n`);
      };
      const now = clock.now();
      try {
        await runImport({ db, cipher, request, schoolId, now, today: indiaDate(now), emit, duplicates: byRow, importAnyway }, prepared);
      } catch (error) {
        request.log.error({ err: error }, 'bulk import failed');
        emit({ type: 'error', message: 'The import stopped because of a problem on our side. Check the student list before importing again.', imported: 0 });
      } finally {
        raw.end();
      }
      return reply;
    },
  );
}
