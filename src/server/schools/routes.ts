import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { schoolInfoSchema } from '../../domain/auth';
import { LOGO_MAX_BYTES, LOGO_TEXTS, logoTypeOf, logoUploadSchema } from '../../domain/school-logo';
import { requireSchool, schoolIdOf } from '../auth/context';
import { errorDto } from '../auth/dto';
import { schoolLogos, schools } from '../db/schema';
import { audit } from '../lib/audit';
import { badRequest, notFound } from '../lib/errors';
import { lockSchool } from '../billing/changes';
import { findSchoolLogo, schoolDto, toSchoolDto } from './queries';

export async function schoolRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, clock } = app.deps;

  app.put(
    '/api/schools/update-info',
    {
      onRequest: requireSchool,
      config: { permission: 'settings.manage' },
      schema: {
        tags: ['settings'],
        summary: "Update the school's name, phone, address, school code, examination board, state and GSTIN",
        description:
          'board (optional: cbse, icse, state, jkbose; left out keeps the current one) decides the subject list a class starts with in Results; ' +
          'classes whose list already exists keep it.',
        security: [{ bearer: [] }],
        body: schoolInfoSchema,
        response: { 200: z.object({ message: z.string(), school: schoolDto }), 400: errorDto, 402: errorDto },
      },
    },
    async (request) => {
      const schoolId = schoolIdOf(request);
      const now = clock.now();
      const { name, phone, address, schoolCode, board, state, gstin } = request.body;
      const tax = { ...(state === undefined ? {} : { state }), ...(gstin === undefined ? {} : { gstin }) };
      const updated = await db.transaction(async (tx) => {
        // the row locked before it is read: the audit's "before" is what this save replaces, and a
        // field left out (board, state, GSTIN) is logged as what another save just set
        const before = await lockSchool(tx, schoolId);
        if (!before) throw notFound('School not found');
        const [row] = await tx
          .update(schools)
          .set({ name, phone: phone ?? '', address: address ?? '', schoolCode, ...(board ? { board } : {}), ...tax, updatedAt: now })
          .where(eq(schools.id, schoolId))
          .returning();
        await audit(tx, request, {
          action: 'school.update',
          entity: 'school',
          entityId: schoolId,
          before: { name: before.name, phone: before.phone, address: before.address, schoolCode: before.schoolCode, board: before.board, state: before.state, gstin: before.gstin },
          after: { name, phone, address, schoolCode, board: board ?? before.board, state: state === undefined ? before.state : state, gstin: gstin === undefined ? before.gstin : gstin },
        });
        return row!;
      });
      return { message: 'School details have been successfully updated.', school: toSchoolDto(updated, now) };
    },
  );

  app.get(
    '/api/school/logo',
    {
      onRequest: requireSchool,
      config: { permission: 'school.view' },
      schema: {
        tags: ['settings'],
        summary: "The school's logo image (PNG or JPEG), as printed on receipts",
        security: [{ bearer: [] }],
        response: { 200: z.any().describe('image/png or image/jpeg'), 404: errorDto },
      },
    },
    async (request, reply) => {
      const logo = await findSchoolLogo(db, { schoolId: schoolIdOf(request) });
      if (!logo) throw notFound(LOGO_TEXTS.none);
      return reply
        .header('content-type', logo.contentType)
        .header('cache-control', 'private, no-cache')
        .header('x-content-type-options', 'nosniff')
        .send(logo.image);
    },
  );

  app.put(
    '/api/school/logo',
    {
      onRequest: requireSchool,
      config: { permission: 'settings.manage' },
      schema: {
        tags: ['settings'],
        summary: "Upload or replace the school's logo",
        description: 'PNG or JPEG, at most 300 KB, as base64 in JSON. The type is checked from the first bytes of the file.',
        security: [{ bearer: [] }],
        body: logoUploadSchema,
        response: { 200: z.object({ message: z.string(), hasLogo: z.literal(true) }), 400: errorDto, 402: errorDto },
      },
    },
    async (request) => {
      const schoolId = schoolIdOf(request);
      const now = clock.now();
      const image = Buffer.from(request.body.image, 'base64');
      if (image.length > LOGO_MAX_BYTES) throw badRequest(LOGO_TEXTS.tooLarge, { fields: { image: LOGO_TEXTS.tooLarge } });
      const contentType = logoTypeOf(image);
      if (!contentType) throw badRequest(LOGO_TEXTS.wrongType, { fields: { image: LOGO_TEXTS.wrongType } });
      await db.transaction(async (tx) => {
        await tx
          .insert(schoolLogos)
          .values({ schoolId, contentType, image, updatedAt: now })
          .onConflictDoUpdate({ target: schoolLogos.schoolId, set: { contentType, image, updatedAt: now } });
        await audit(tx, request, { action: 'school.logo.upload', entity: 'school', entityId: schoolId, before: null, after: { contentType, bytes: image.length } });
      });
      return { message: LOGO_TEXTS.uploaded, hasLogo: true as const };
    },
  );

  app.delete(
    '/api/school/logo',
    {
      onRequest: requireSchool,
      config: { permission: 'settings.manage' },
      schema: {
        tags: ['settings'],
        summary: "Remove the school's logo",
        security: [{ bearer: [] }],
        response: { 200: z.object({ message: z.string(), hasLogo: z.literal(false) }), 402: errorDto, 404: errorDto },
      },
    },
    async (request) => {
      const schoolId = schoolIdOf(request);
      await db.transaction(async (tx) => {
        const removed = await tx.delete(schoolLogos).where(eq(schoolLogos.schoolId, schoolId)).returning({ contentType: schoolLogos.contentType });
        if (removed.length === 0) throw notFound(LOGO_TEXTS.none);
        await audit(tx, request, { action: 'school.logo.remove', entity: 'school', entityId: schoolId, before: { contentType: removed[0]!.contentType }, after: null });
      });
      return { message: LOGO_TEXTS.removed, hasLogo: false as const };
    },
  );
}
