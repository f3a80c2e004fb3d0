import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { schoolInfoSchema } from '../../domain/auth';
import { requireSchool, schoolIdOf } from '../auth/context';
import { errorDto } from '../auth/dto';
import { schools } from '../db/schema';
import { audit } from '../lib/audit';
import { notFound } from '../lib/errors';
import { findSchool, schoolDto, toSchoolDto } from './queries';

export async function schoolRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, clock } = app.deps;

  app.put(
    '/api/schools/update-info',
    {
      onRequest: requireSchool,
      schema: {
        tags: ['settings'],
        summary: "Update the school's name, phone, address, school code and examination board",
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
      const before = await findSchool(db, { schoolId });
      if (!before) throw notFound('School not found');
      const { name, phone, address, schoolCode, board } = request.body;
      const updated = await db.transaction(async (tx) => {
        const [row] = await tx
          .update(schools)
          .set({ name, phone: phone ?? '', address: address ?? '', schoolCode, ...(board ? { board } : {}), updatedAt: now })
          .where(eq(schools.id, schoolId))
          .returning();
        await audit(tx, request, {
          action: 'school.update',
          entity: 'school',
          entityId: schoolId,
          before: { name: before.name, phone: before.phone, address: before.address, schoolCode: before.schoolCode, board: before.board },
          after: { name, phone, address, schoolCode, board: board ?? before.board },
        });
        return row!;
      });
      return { message: 'School details have been successfully updated.', school: toSchoolDto(updated, now) };
    },
  );
}
