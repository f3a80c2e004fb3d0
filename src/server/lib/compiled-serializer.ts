import fastJson from 'fast-json-stringify';
import { z } from 'zod';

/**
 * A route serializer compiled once from the route's zod response schema (fastify's own
 * fast-json-stringify, which fastify depends on): only the declared fields are written, as with
 * the zod serializer, but a list of thousands of rows is not validated field by field on every
 * answer. For hot lists whose rows the server builds itself from typed columns (decision 0042).
 */
export function compiledSerializer({ schema }: { schema: unknown }): (data: unknown) => string {
  const json = z.toJSONSchema(schema as z.ZodType, { target: 'draft-7', io: 'output', unrepresentable: 'any' });
  return fastJson(json as Parameters<typeof fastJson>[0]);
}
