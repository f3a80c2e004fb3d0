import { sql, type SQL } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { auditPageDto, auditQuerySchema, type AuditQuery } from '../../domain/staff';
import { requireSchool, schoolIdOf } from '../auth/context';
import { errorDto } from '../auth/dto';
import type { Db } from '../db/client';
import { badRequest } from '../lib/errors';
import { rowsOf } from '../lib/sql-rows';
import { sendTable } from '../lib/xlsx-table';

/** An export holds at most this many rows; the viewer pages through the rest. */
const EXPORT_LIMIT = 20000;

function where(schoolId: string, q: Omit<AuditQuery, 'page' | 'pageSize'>): SQL {
  // India days on created_at, as a range the (school_id, created_at) index serves
  return sql`a.school_id = ${schoolId}
    ${q.userId ? sql`and a.user_id = ${q.userId}` : sql``}
    ${q.action ? sql`and a.action = ${q.action}` : sql``}
    ${q.from ? sql`and a.created_at >= ((${q.from}::date)::timestamp - interval '330 minutes') at time zone 'UTC'` : sql``}
    ${q.to ? sql`and a.created_at < ((${q.to}::date + 1)::timestamp - interval '330 minutes') at time zone 'UTC'` : sql``}`;
}

async function auditRows(db: Db, schoolId: string, q: Omit<AuditQuery, 'page' | 'pageSize'>, limit: number, offset: number) {
  const result = await db.execute(sql`
    select a.id, a.created_at, a.user_id, u.username, a.action, a.entity, a.entity_id, a.before, a.after, a.ip
    from audit_log a left join users u on u.id = a.user_id
    where ${where(schoolId, q)}
    order by a.created_at desc, a.id desc
    limit ${limit} offset ${offset}`);
  return rowsOf<Record<string, unknown>>(result).map((r) => ({
    id: String(r.id),
    at: new Date(r.created_at as string | Date).toISOString(),
    userId: (r.user_id as string | null) ?? null,
    userName: (r.username as string | null) ?? null,
    action: String(r.action),
    entity: String(r.entity),
    entityId: (r.entity_id as string | null) ?? null,
    before: r.before ?? null,
    after: r.after ?? null,
    ip: (r.ip as string | null) ?? null,
  }));
}

/** The audit log viewer (issue 15 item 3, ruling 3): the school's own log, newest first. */
export async function auditRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db } = app.deps;
  const check = (q: AuditQuery) => {
    if (q.from && q.to && q.from > q.to) throw badRequest('from must not be after to');
  };

  app.get(
    '/api/audit-log',
    {
      onRequest: requireSchool,
      config: { permission: 'audit.view' },
      schema: {
        tags: ['staff'],
        summary: "The school's audit log, newest first: who did what and when; filters user, action and India dates; paged",
        security: [{ bearer: [] }],
        querystring: auditQuerySchema,
        response: { 200: auditPageDto, 400: errorDto },
      },
    },
    async (request) => {
      const schoolId = schoolIdOf(request);
      const q = request.query;
      check(q);
      const [rows, counted, actions] = await Promise.all([
        auditRows(db, schoolId, q, q.pageSize, (q.page - 1) * q.pageSize),
        db.execute(sql`select count(*)::int as n from audit_log a where ${where(schoolId, q)}`),
        db.execute(sql`select distinct action from audit_log where school_id = ${schoolId} order by action`),
      ]);
      return {
        rows,
        total: Number(rowsOf<{ n: number }>(counted)[0]?.n ?? 0),
        page: q.page,
        pageSize: q.pageSize,
        actions: rowsOf<{ action: string }>(actions).map((r) => r.action),
      };
    },
  );

  app.get(
    '/api/audit-log.xlsx',
    {
      onRequest: requireSchool,
      config: { permission: 'audit.view' },
      schema: { tags: ['staff'], summary: 'The filtered audit log as an Excel workbook (newest first, at most 20,000 rows)', security: [{ bearer: [] }], querystring: auditQuerySchema },
    },
    async (request, reply) => {
      const q = request.query;
      check(q);
      const rows = await auditRows(db, schoolIdOf(request), q, EXPORT_LIMIT, 0);
      const json = (v: unknown) => (v === null || v === undefined ? '' : JSON.stringify(v));
      return sendTable(
        reply,
        'xlsx',
        'audit-log',
        'Audit log',
        [
          { header: 'When (UTC)', width: 22 },
          { header: 'User', width: 20 },
          { header: 'Action', width: 20 },
          { header: 'Entity', width: 14 },
          { header: 'Entity id', width: 38 },
          { header: 'Before', width: 40 },
          { header: 'After', width: 40 },
          { header: 'IP', width: 16 },
        ],
        rows.map((r) => [r.at, r.userName ?? '', r.action, r.entity, r.entityId, json(r.before), json(r.after), r.ip]),
      );
    },
  );
}
