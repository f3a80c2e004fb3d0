import { createReadStream } from 'node:fs';
import { access } from 'node:fs/promises';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { indiaDate } from '../../domain/sessions';
import { requireSchool, schoolIdOf } from '../auth/context';
import { errorDto } from '../auth/dto';
import { schools } from '../db/schema';
import { audit } from '../lib/audit';
import { HttpError, notFound } from '../lib/errors';
import { isUuid } from '../lib/ids';
import { lockFor } from '../lib/locks';
import { createExport, findExport, findPendingExport, isDownloadable, listExports, type ExportRowDb } from './queries';
import { ExportWorker } from './worker';

const tags = ['exports'];
const security = [{ bearer: [] }];
const NOT_FOUND = 'Export not found';
export const EXPIRED_MESSAGE = 'This export has expired and its file was deleted. Start a new export.';

const exportDto = z.object({
  id: z.string(),
  status: z.enum(['queued', 'running', 'done', 'failed']),
  progress: z.number().int().describe('0–100'),
  downloadUrl: z.string().nullable().describe('set once done, until the export expires; needs the bearer token'),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
  expiresAt: z.string(),
  sizeBytes: z.number().nullable(),
  error: z.string().nullable(),
});

function toDto(row: ExportRowDb, now: Date): z.infer<typeof exportDto> {
  return {
    id: row.id,
    status: row.status,
    progress: row.progress,
    downloadUrl: isDownloadable(row, now) ? `/api/exports/${row.id}/download` : null,
    createdAt: row.createdAt.toISOString(),
    finishedAt: row.finishedAt?.toISOString() ?? null,
    expiresAt: row.expiresAt.toISOString(),
    sizeBytes: row.sizeBytes,
    error: row.error,
  };
}

const idParams = z.object({ id: z.string().max(64) });

/** `school-ledger-green-valley-school-2026-11-22.zip` */
function zipName(schoolName: string, now: Date): string {
  const slug = schoolName.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '').slice(0, 60) || 'school';
  return `school-ledger-${slug}-${indiaDate(now)}.zip`;
}

/**
 * Whole-school data export (ruling 25): `POST /api/exports` → `{id}`, `GET /api/exports/{id}` →
 * `{status, progress, downloadUrl}`, the download, and the latest exports for the Settings card.
 * All of it works in the read-only session of an ended plan (ruling 14).
 */
export async function exportRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, clock, config } = app.deps;

  const worker = new ExportWorker({ db, clock, dataDir: config.dataDir, log: app.log.child({ component: 'export-worker' }) });
  // takes over what a stopped server left behind
  app.addHook('onReady', async () => worker.nudge());
  app.addHook('onClose', async () => worker.stop());

  app.post(
    '/api/exports',
    {
      onRequest: requireSchool,
      // ruling 14 and 25: the school's data stays its own to take away after its plan ends
      config: { permission: 'data.export', allowWhenExpired: true },
      schema: {
        tags,
        summary: 'Start a whole-school data export',
        description:
          'Answers 202 with the id at once; the zip (a CSV per entity, one Excel workbook with a sheet per entity, and README.txt) is built in the background. ' +
          'While an export of the school is queued or running, its id is answered instead of starting another. Allowed in the read-only session after the plan ends.',
        security,
        response: { 202: z.object({ id: z.string(), status: exportDto.shape.status }), 401: errorDto, 403: errorDto },
      },
    },
    async (request, reply) => {
      const schoolId = schoolIdOf(request);
      const answer = await db.transaction(async (tx) => {
        // one look for a pending export at a time per school: two presses at once both found none
        // and both queued a whole build
        await lockFor(tx, `exports:${schoolId}`);
        const pending = await findPendingExport(tx, schoolId);
        if (pending) return { id: pending.id, status: pending.status, created: false };
        const created = await createExport(tx, { schoolId, userId: request.auth!.userId, now: clock.now() });
        await audit(tx, request, { action: 'export.create', entity: 'data_export', entityId: created.id });
        return { id: created.id, status: created.status, created: true };
      });
      if (answer.created) worker.nudge();
      return reply.status(202).send({ id: answer.id, status: answer.status });
    },
  );

  app.get(
    '/api/exports',
    {
      onRequest: requireSchool,
      config: { permission: 'data.export' },
      schema: { tags, summary: "The school's latest exports, newest first (at most 5)", security, response: { 200: z.object({ exports: z.array(exportDto) }) } },
    },
    async (request) => {
      const now = clock.now();
      return { exports: (await listExports(db, schoolIdOf(request))).map((row) => toDto(row, now)) };
    },
  );

  app.get(
    '/api/exports/:id',
    {
      onRequest: requireSchool,
      config: { permission: 'data.export' },
      schema: { tags, summary: 'An export: status, progress and download link', security, params: idParams, response: { 200: exportDto, 404: errorDto } },
    },
    async (request) => {
      const { id } = request.params;
      const row = isUuid(id) ? await findExport(db, { schoolId: schoolIdOf(request), id }) : undefined;
      if (!row) throw notFound(NOT_FOUND);
      return toDto(row, clock.now());
    },
  );

  app.get(
    '/api/exports/:id/download',
    {
      onRequest: requireSchool,
      config: { permission: 'data.export' },
      schema: {
        tags,
        summary: 'Download a finished export (zip)',
        description: 'Needs the bearer token of the same school. 404 for an unknown id or another school\'s; 409 while not finished; 410 once expired.',
        security,
        params: idParams,
        response: { 200: z.any().describe('the zip'), 404: errorDto, 409: errorDto, 410: errorDto },
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      const schoolId = schoolIdOf(request);
      const row = isUuid(id) ? await findExport(db, { schoolId, id }) : undefined;
      if (!row) throw notFound(NOT_FOUND);
      const now = clock.now();
      if (row.status !== 'done') throw new HttpError(409, row.status === 'failed' ? (row.error ?? 'The export failed') : 'The export is not finished yet');
      if (!isDownloadable(row, now)) throw new HttpError(410, EXPIRED_MESSAGE);
      const file = path.join(config.dataDir, row.filePath!);
      try {
        await access(file);
      } catch {
        throw new HttpError(410, EXPIRED_MESSAGE);
      }
      const [school] = await db.select({ name: schools.name }).from(schools).where(eq(schools.id, schoolId)).limit(1);
      reply
        .header('content-type', 'application/zip')
        .header('content-disposition', `attachment; filename="${zipName(school?.name ?? '', now)}"`)
        .header('cache-control', 'no-store');
      if (row.sizeBytes !== null) reply.header('content-length', String(row.sizeBytes));
      return reply.send(createReadStream(file));
    },
  );
}
