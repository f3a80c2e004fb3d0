import type { OutgoingHttpHeaders } from 'node:http';
import type { FastifyError, FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { IMPORT_MESSAGES, parseStudentCsv, rowsFromObjects, TEMPLATE_COLUMNS } from '../../domain/student-import';
import { indiaDate } from '../../domain/sessions';
import { requireSchool, schoolIdOf } from '../auth/context';
import { errorDto } from '../auth/dto';
import { badRequest } from '../lib/errors';
import { prepareRows, runImport, type ImportEvent } from './bulk-import';

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
});

export function registerBulkImport(fastify: FastifyInstance): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, clock, cipher } = app.deps;

  app.post(
    '/api/students/bulk-progress',
    {
      onRequest: requireSchool,
      bodyLimit: IMPORT_BODY_LIMIT,
      errorHandler(error: FastifyError, request, reply) {
        if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return reply.status(413).send({ error: IMPORT_TOO_LARGE });
        return fastify.errorHandler(error, request, reply);
      },
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
          '{ type: "complete", result: { imported, errors: [{ row, name, reason }], sections: [{ class, section, count }] } }.',
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
      const { csv, students } = request.body;
      if (students === undefined && csv === undefined) throw badRequest(IMPORT_MESSAGES.empty);
      const parsed = students !== undefined ? rowsFromObjects(students) : parseStudentCsv(csv ?? '');
      if (!parsed.ok) throw badRequest(parsed.error);
      const prepared = prepareRows(parsed.rows);

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
        await runImport({ db, cipher, request, schoolId, now, today: indiaDate(now), emit }, prepared);
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
