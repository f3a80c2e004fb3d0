import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { SETUP_STEPS, type SetupStepId } from '../../domain/setup-checklist';
import { requireSchool, schoolIdOf } from '../auth/context';
import { errorDto } from '../auth/dto';
import type { Db } from '../db/client';
import { rowsOf } from '../lib/sql-rows';

const checklistDto = z.object({
  steps: z.array(z.object({ id: z.enum(SETUP_STEPS), done: z.boolean() })),
  completed: z.number().int(),
  total: z.number().int(),
  allDone: z.boolean(),
});

/**
 * What a new school has set up, read from its records (never from the browser): its details saved
 * in Settings (the school code is asked for there, not at registration), a session, a fee
 * structure, a student and a first receipt.
 */
export async function setupState(db: Db, schoolId: string): Promise<Record<SetupStepId, boolean>> {
  const [row] = rowsOf<Record<SetupStepId, boolean>>(
    await db.execute(sql`select
      exists(select 1 from schools where id = ${schoolId} and school_code is not null) as "schoolDetails",
      exists(select 1 from academic_sessions where school_id = ${schoolId}) as "session",
      exists(select 1 from class_fee_structures where school_id = ${schoolId}) as "feeStructures",
      exists(select 1 from students where school_id = ${schoolId}) as "students",
      exists(select 1 from receipts where school_id = ${schoolId}) as "firstReceipt"`),
  );
  return row!;
}

/** GET /api/setup-checklist: the dashboard's first-run checklist (platform §7–§8, issue 12 item 6). */
export async function onboardingRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db } = app.deps;

  app.get(
    '/api/setup-checklist',
    {
      onRequest: requireSchool,
      config: { permission: 'school.view' },
      schema: {
        tags: ['auth'],
        summary: "The school's setup checklist",
        description: 'Each step is done when its records exist: school details saved (school code set), a session, a fee structure, a student, a receipt.',
        security: [{ bearer: [] }],
        response: { 200: checklistDto, 401: errorDto, 403: errorDto },
      },
    },
    async (request) => {
      const state = await setupState(db, schoolIdOf(request));
      const steps = SETUP_STEPS.map((id) => ({ id, done: Boolean(state[id]) }));
      const completed = steps.filter((s) => s.done).length;
      return { steps, completed, total: steps.length, allDone: completed === steps.length };
    },
  );
}
