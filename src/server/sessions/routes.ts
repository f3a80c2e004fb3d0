import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { createSessionSchema } from '../../domain/sessions';
import { requireSchool, schoolIdOf } from '../auth/context';
import { errorDto } from '../auth/dto';
import { audit } from '../lib/audit';
import { notFound } from '../lib/errors';
import { isUuid } from '../lib/ids';
import { canUndoStart } from './start';
import { activateSession, createSession, findActiveSession, findSession, listSessions, sessionDto, toSessionDto } from './queries';

const NOT_FOUND = 'Academic session not found';

export async function sessionRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db } = app.deps;
  const security = [{ bearer: [] }];

  app.get(
    '/api/academic-sessions',
    {
      onRequest: requireSchool,
      config: { permission: 'school.view' },
      schema: {
        tags: ['academic sessions'],
        summary: "The school's academic sessions, newest first",
        security,
        response: { 200: z.array(sessionDto.extend({ canUndoStart: z.boolean().describe('its start can still be undone (no receipt in it yet)') })) },
      },
    },
    async (request) => {
      const schoolId = schoolIdOf(request);
      const rows = await listSessions(db, { schoolId });
      return Promise.all(rows.map(async (row) => ({ ...toSessionDto(row), canUndoStart: await canUndoStart(db, { schoolId, to: row }) })));
    },
  );

  app.get(
    '/api/academic-sessions/active',
    {
      onRequest: requireSchool,
      config: { permission: 'school.view' },
      schema: {
        tags: ['academic sessions'],
        summary: 'The active academic session (404 "No active academic session" when there is none)',
        security,
        response: { 200: sessionDto, 404: errorDto },
      },
    },
    async (request) => {
      const row = await findActiveSession(db, { schoolId: schoolIdOf(request) });
      if (!row) throw notFound('No active academic session');
      return toSessionDto(row);
    },
  );

  app.get(
    '/api/academic-sessions/:id',
    {
      onRequest: requireSchool,
      config: { permission: 'school.view' },
      schema: {
        tags: ['academic sessions'],
        summary: 'One academic session',
        security,
        params: z.object({ id: z.string() }),
        response: { 200: sessionDto, 404: errorDto },
      },
    },
    async (request) => {
      const { id } = request.params;
      const row = isUuid(id) ? await findSession(db, { schoolId: schoolIdOf(request), id }) : undefined;
      if (!row) throw notFound(NOT_FOUND);
      return toSessionDto(row);
    },
  );

  app.post(
    '/api/academic-sessions',
    {
      onRequest: requireSchool,
      config: { permission: 'settings.manage' },
      schema: {
        tags: ['academic sessions'],
        summary: 'Create an academic session of at least 12 months; an active one deactivates the others',
        description:
          'The name is an academic year: 2025-2026 (2025-26 is stored as 2025-2026), else 400 "Session name must be an academic year such as 2025-2026…". ' +
          'Answers 201 with the session; 400 "Please fill in all required fields", ' +
          '"End date must be after start date.", "Academic session must be at least 12 months long. Current duration: N months. Please adjust the dates."; ' +
          '409 when a session of that name exists, or when the dates overlap another session of the school ("These dates overlap the academic session 2026-2027 (2026-04-01 to 2027-03-31)…").',
        security,
        body: createSessionSchema,
        response: { 201: sessionDto, 400: errorDto, 402: errorDto, 409: errorDto },
      },
    },
    async (request, reply) => {
      const schoolId = schoolIdOf(request);
      const { sessionName, startDate, endDate, isActive } = request.body;
      const row = await db.transaction(async (tx) => {
        const created = await createSession(tx, {
          schoolId,
          name: sessionName,
          startDate,
          endDate,
          isActive,
        });
        await audit(tx, request, { action: 'academic_session.create', entity: 'academic_session', entityId: created.id, after: toSessionDto(created) });
        return created;
      });
      reply.status(201);
      return toSessionDto(row);
    },
  );

  app.put(
    '/api/academic-sessions/:id/activate',
    {
      onRequest: requireSchool,
      config: { permission: 'settings.manage' },
      schema: {
        tags: ['academic sessions'],
        summary: 'Make this session the active one (every other session of the school becomes inactive)',
        security,
        params: z.object({ id: z.string() }),
        response: { 200: sessionDto, 402: errorDto, 404: errorDto },
      },
    },
    async (request) => {
      const schoolId = schoolIdOf(request);
      const { id } = request.params;
      if (!isUuid(id)) throw notFound(NOT_FOUND);
      const row = await db.transaction(async (tx) => {
        const before = await findActiveSession(tx, { schoolId });
        const activated = await activateSession(tx, { schoolId, id });
        if (!activated) return undefined;
        await audit(tx, request, {
          action: 'academic_session.activate',
          entity: 'academic_session',
          entityId: id,
          before: { activeSessionId: before?.id ?? null, activeSessionName: before?.name ?? null },
          after: { activeSessionId: activated.id, activeSessionName: activated.name },
        });
        return activated;
      });
      if (!row) throw notFound(NOT_FOUND);
      return toSessionDto(row);
    },
  );
}
