import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { normaliseClass } from '../../domain/classes';
import { bulkAdjustSchema, FEE_HEADS, feeStructureSchema } from '../../domain/fee-structures';
import { normaliseAcademicYear } from '../../domain/sessions';
import { requireSchool, schoolIdOf } from '../auth/context';
import { errorDto } from '../auth/dto';
import { audit } from '../lib/audit';
import { notFound } from '../lib/errors';
import { isUuid } from '../lib/ids';
import {
  bulkAdjustFeeStructures,
  createFeeStructure,
  feeStructureDto,
  findFeeStructure,
  listFeeStructures,
  toFeeStructureDto,
  updateFeeStructure,
} from './queries';
import { lockForManyStudents, rebuildSchoolBalances, refreshClassBalances } from '../balances/refresh';

const NOT_FOUND = 'Fee structure not found';
const tags = ['fee structures'];
const security = [{ bearer: [] }];
const conflictDto = z.object({ error: z.string(), title: z.string().optional() });

export async function feeStructureRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, clock } = app.deps;

  app.get(
    '/api/class-fee-structures',
    {
      onRequest: requireSchool,
      config: { permission: 'fees.view' },
      schema: {
        tags,
        summary: 'Class fee structures in class order, optionally for one class and academic year',
        description:
          'class accepts any spelling (Class 1, 1st, IST, Grade 1) and is matched case-insensitively; academicYear accepts 2025-2026, 2025-26 or 2025.',
        security,
        querystring: z.object({ class: z.string().max(40).optional(), academicYear: z.string().max(20).optional() }),
        response: { 200: z.array(feeStructureDto) },
      },
    },
    async (request) => {
      const { class: rawClass, academicYear: rawYear } = request.query;
      const className = rawClass?.trim() ? (normaliseClass(rawClass) ?? rawClass.trim()) : undefined;
      const academicYear = rawYear?.trim() ? (normaliseAcademicYear(rawYear) ?? rawYear.trim()) : undefined;
      const rows = await listFeeStructures(db, { schoolId: schoolIdOf(request), className, academicYear });
      return rows.map(toFeeStructureDto);
    },
  );

  app.get(
    '/api/class-fee-structures/:id',
    {
      onRequest: requireSchool,
      config: { permission: 'fees.view' },
      schema: { tags, summary: 'One fee structure', security, params: z.object({ id: z.string() }), response: { 200: feeStructureDto, 404: errorDto } },
    },
    async (request) => {
      const { id } = request.params;
      const row = isUuid(id) ? await findFeeStructure(db, { schoolId: schoolIdOf(request), id }) : undefined;
      if (!row) throw notFound(NOT_FOUND);
      return toFeeStructureDto(row);
    },
  );

  app.post(
    '/api/class-fee-structures',
    {
      onRequest: requireSchool,
      config: { permission: 'fees.setup' },
      schema: {
        tags,
        summary: 'Add the fee structure of a class for an academic year',
        description:
          'Amounts are rupees ("1500.00", 1500 or "1500.5"), at least 0 with at most 2 decimals, 0 when left out. ' +
          '409 { error: "Fee structure for {class} in {year} already exists.", title: "Duplicate Fee Structure" }.',
        security,
        body: feeStructureSchema,
        response: { 201: feeStructureDto, 400: errorDto, 402: errorDto, 409: conflictDto },
      },
    },
    async (request, reply) => {
      const schoolId = schoolIdOf(request);
      const now = clock.now();
      const row = await db.transaction(async (tx) => {
        const created = await createFeeStructure(tx, { schoolId, input: request.body, now });
        await refreshClassBalances(tx, { schoolId, classNames: [created.className] });
        await audit(tx, request, { action: 'fee_structure.create', entity: 'class_fee_structure', entityId: created.id, after: toFeeStructureDto(created) });
        return created;
      });
      reply.status(201);
      return toFeeStructureDto(row);
    },
  );

  // a static path: Fastify matches it before the /:id parameter
  app.put(
    '/api/class-fee-structures/bulk-adjust',
    {
      onRequest: requireSchool,
      config: { permission: 'fees.setup' },
      schema: {
        tags,
        summary: 'Annual fee increment: raise the chosen fee heads of every structure by a percentage',
        description:
          'percentage above 0 with at most 2 decimals ("Please enter a valid percentage greater than 0"); feeTypes: booleans for ' +
          `${FEE_HEADS.join(', ')} ("Please select at least one fee type to increase"); academicYear (optional) limits it to that year; ` +
          'fromAcademicYear (optional): raise that year\'s structures into academicYear (next year\'s fees from this year\'s, creating or replacing them; this year\'s dues do not change). ' +
          'roundTo 1, 5 or 10: new amounts round half-up to that many rupees (default 1: 10% on 1654.50 gives 1820.00). Answers the number of structures written and those structures.',
        security,
        body: bulkAdjustSchema,
        response: { 200: z.object({ updated: z.number().int(), structures: z.array(feeStructureDto) }), 400: errorDto, 402: errorDto },
      },
    },
    async (request) => {
      const schoolId = schoolIdOf(request);
      const { percentage, feeTypes, academicYear, fromAcademicYear, roundTo } = request.body;
      const heads = FEE_HEADS.filter((h) => feeTypes[h]);
      const now = clock.now();
      const { after } = await db.transaction(async (tx) => {
        const changed = await bulkAdjustFeeStructures(tx, { schoolId, percentage, heads, academicYear, fromAcademicYear, roundTo, now });
        // any class of any year may have moved: one whole-school pass
        if (changed.after.length > 0) await rebuildSchoolBalances(tx, schoolId);
        await audit(tx, request, {
          action: 'fee_structure.bulk_adjust',
          entity: 'class_fee_structure',
          before: { percentage, feeTypes: heads, academicYear, fromAcademicYear, roundTo, structures: changed.before.map(toFeeStructureDto) },
          after: { structures: changed.after.map(toFeeStructureDto) },
        });
        return changed;
      });
      return { updated: after.length, structures: after.map(toFeeStructureDto) };
    },
  );

  app.put(
    '/api/class-fee-structures/:id',
    {
      onRequest: requireSchool,
      config: { permission: 'fees.setup' },
      schema: {
        tags,
        summary: 'Change a fee structure (prices, not received money, so editing is allowed)',
        description: 'Same body and rules as creating; 409 when another structure has that class and year.',
        security,
        params: z.object({ id: z.string() }),
        body: feeStructureSchema,
        response: { 200: feeStructureDto, 400: errorDto, 402: errorDto, 404: errorDto, 409: conflictDto },
      },
    },
    async (request) => {
      const schoolId = schoolIdOf(request);
      const { id } = request.params;
      if (!isUuid(id)) throw notFound(NOT_FOUND);
      const now = clock.now();
      const row = await db.transaction(async (tx) => {
        // the class it had is read under the lock its refresh takes: an edit of the same structure in
        // flight (moving it to another class) commits first, and that class is refreshed here too
        await lockForManyStudents(tx, schoolId);
        const before = await findFeeStructure(tx, { schoolId, id });
        if (!before) return undefined;
        const updated = await updateFeeStructure(tx, { schoolId, id, input: request.body, now });
        if (!updated) return undefined;
        await refreshClassBalances(tx, { schoolId, classNames: [before.className, updated.className] });
        await audit(tx, request, {
          action: 'fee_structure.update',
          entity: 'class_fee_structure',
          entityId: id,
          before: toFeeStructureDto(before),
          after: toFeeStructureDto(updated),
        });
        return updated;
      });
      if (!row) throw notFound(NOT_FOUND);
      return toFeeStructureDto(row);
    },
  );
}
