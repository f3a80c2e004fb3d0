import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signUpSchool, type TestContext } from './test/harness';

/**
 * Issue "Trust before launch", item 15: a NUL byte in any text field was a 500 on 36 routes, and
 * the log then held the failed SQL with its parameters (names, phone numbers). This sweep walks
 * every route of the API reference and sends a NUL in each string field of the body and in each
 * query and path parameter, one at a time, with an otherwise plausible request.
 */

type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
  pattern?: string;
  minimum?: number;
  default?: unknown;
  additionalProperties?: JsonSchema | boolean;
};
type Operation = {
  parameters?: Array<{ in: 'query' | 'path' | 'header'; name: string; schema?: JsonSchema }>;
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
};

/** The personal data the requests carry: it must never reach the log. */
const MARKER = 'RaviSecretKumar';
const NUL = '\u0000';

/** Values that pass the usual checks of a field by its name, so the NUL is what the route meets. */
function byName(name: string): string | undefined {
  const n = name.toLowerCase();
  if (n === 'class' || n.endsWith('class') || n === 'classname') return 'Class 1';
  if (n === 'section') return 'A';
  if (n.includes('phone') || n.includes('mobile')) return '9876543210';
  if (n.includes('email')) return `${MARKER.toLowerCase()}@school.test`;
  if (n.includes('password')) return `${MARKER}1`;
  if (n.endsWith('date') || n === 'date' || n === 'from' || n === 'to' || n === 'dob') return '2026-04-10';
  if (n === 'month') return '2026-04';
  if (n.includes('academicyear') || n.includes('session')) return '2026-2027';
  if (n.includes('amount') || n.includes('fee') || n.endsWith('paise') || n === 'price') return '100.00';
  if (n.endsWith('id') || n.endsWith('ids')) return '00000000-0000-4000-8000-000000000000';
  return undefined;
}

function example(schema: JsonSchema | undefined, depth = 0, name = ''): unknown {
  if (!schema || depth > 6) return 'x';
  if (schema.const !== undefined) return schema.const;
  if (schema.enum?.length) return schema.enum[0];
  const options = schema.anyOf ?? schema.oneOf;
  if (options?.length) return example(options.find((o) => o.type === 'string') ?? options.find((o) => o.type !== 'null') ?? options[0], depth + 1, name);
  if (schema.allOf?.length) return example(schema.allOf[0], depth + 1, name);
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  switch (type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const [key, child] of Object.entries(schema.properties ?? {})) out[key] = example(child, depth + 1, key);
      return out;
    }
    case 'array':
      return [example(schema.items, depth + 1, name)];
    case 'integer':
    case 'number':
      return schema.minimum !== undefined && schema.minimum > 1 ? schema.minimum : 1;
    case 'boolean':
      return false;
    case 'string':
      if (schema.format === 'email') return `${MARKER.toLowerCase()}@school.test`;
      if (schema.format === 'uuid') return '00000000-0000-4000-8000-000000000000';
      if (schema.format === 'date') return '2026-04-10';
      if (schema.format === 'date-time') return '2026-04-10T05:30:00.000Z';
      return byName(name) ?? MARKER;
    default:
      return MARKER;
  }
}

/** Every path to a string leaf of a value, so each can be given a NUL in turn. */
function stringPaths(value: unknown, at: Array<string | number> = []): Array<Array<string | number>> {
  if (typeof value === 'string') return [at];
  if (Array.isArray(value)) return value.flatMap((v, i) => stringPaths(v, [...at, i]));
  if (value && typeof value === 'object') return Object.entries(value).flatMap(([k, v]) => stringPaths(v, [...at, k]));
  return [];
}

function withNul(value: unknown, path: Array<string | number>): unknown {
  const copy = structuredClone(value);
  if (path.length === 0) return `${String(copy)}${NUL}`;
  let target = copy as Record<string | number, unknown>;
  for (const key of path.slice(0, -1)) target = target[key] as Record<string | number, unknown>;
  const last = path[path.length - 1]!;
  target[last] = `${String(target[last])}${NUL}`;
  return copy;
}

let ctx: TestContext;
const logLines: string[] = [];
let operations: Array<{ method: string; path: string; op: Operation }>;

beforeAll(async () => {
  ctx = await createTestApp({ logger: { level: 'info', stream: { write: (line: string) => void logLines.push(line) } } });
  const doc = (await ctx.app.inject({ method: 'GET', url: '/api/docs/json' })).json() as { paths: Record<string, Record<string, Operation>> };
  operations = Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => ({ method: method.toUpperCase(), path, op })),
  );
});
afterAll(() => ctx.close());

describe('control characters in text input', () => {
  it('a NUL byte in any text field or parameter answers 4xx, never 5xx, and the log holds no personal data', async () => {
    const school = await signUpSchool(ctx);
    // a real student, so routes that look one up reach their queries
    await school.api.post('/api/students', { name: 'Asha', class: 'Class 1', section: 'A', fatherName: 'Ravi', mobileNumber: '9876543210', monthlyBusFee: '0.00' });
    const crashes: string[] = [];
    let sent = 0;
    for (const { method, path, op } of operations) {
      if (path.includes('logout') || path.includes('webhook')) continue;
      const pathParams = (op.parameters ?? []).filter((p) => p.in === 'path');
      const queryParams = (op.parameters ?? []).filter((p) => p.in === 'query');
      const baseParams: Record<string, string> = Object.fromEntries(pathParams.map((p) => [p.name, String(byName(p.name) ?? 'x')]));
      const baseQuery: Record<string, string> = Object.fromEntries(queryParams.map((p) => [p.name, String(example(p.schema, 0, p.name))]));
      const bodySchema = op.requestBody?.content?.['application/json']?.schema;
      const baseBody = bodySchema ? example(bodySchema) : undefined;

      const variants: Array<{ label: string; params: Record<string, string>; query: Record<string, string>; body: unknown }> = [];
      // path parameters are ids and class names, not personal data: a plain word marks them
      for (const p of pathParams) variants.push({ label: `path ${p.name}`, params: { ...baseParams, [p.name]: `not-an-id${NUL}` }, query: baseQuery, body: baseBody });
      for (const p of queryParams) variants.push({ label: `query ${p.name}`, params: baseParams, query: { ...baseQuery, [p.name]: `${MARKER}${NUL}` }, body: baseBody });
      for (const at of stringPaths(baseBody)) variants.push({ label: `body ${at.join('.')}`, params: baseParams, query: baseQuery, body: withNul(baseBody, at) });

      for (const v of variants) {
        const url = path.replace(/\{([^}]+)\}/g, (_m, name: string) => encodeURIComponent(v.params[name] ?? 'x'));
        const search = new URLSearchParams(v.query).toString();
        const res = await ctx.app.inject({
          method: method as 'POST',
          url: search ? `${url}?${search}` : url,
          headers: { authorization: `Bearer ${school.token}` },
          ...(method === 'GET' || method === 'DELETE' || v.body === undefined ? {} : { payload: v.body as object }),
        });
        sent += 1;
        if (res.statusCode >= 500) crashes.push(`${method} ${path} (${v.label}) → ${res.statusCode}`);
      }
    }
    expect(sent).toBeGreaterThan(100);
    expect(crashes).toEqual([]);
    expect(logLines.filter((line) => line.includes(MARKER) || line.toLowerCase().includes(MARKER.toLowerCase()))).toEqual([]);
  }, 120_000);

  it('the public sign-in and a student form name the field in a clear 400', async () => {
    const login = await ctx.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: 'asha\u0000@school.test', password: 'Secret123' } });
    expect(login.statusCode).toBe(400);
    expect(login.json()).toEqual({
      error: 'Email must not contain control characters (such as NUL)',
      fields: { email: 'Email must not contain control characters (such as NUL)' },
    });
    const school = await signUpSchool(ctx);
    const add = await school.api.post('/api/students', { name: 'Asha', class: 'Class 1', section: 'A', fatherName: 'Ravi\u001b[31m', mobileNumber: '9876543210' });
    expect(add.statusCode).toBe(400);
    expect(add.json().error).toBe('Father name must not contain control characters (such as NUL)');
    // a line break is fine in an address, not in a name
    const named = await school.api.post('/api/students', { name: 'Asha\nKumari', class: 'Class 1', section: 'A', fatherName: 'Ravi', mobileNumber: '9876543210' });
    expect(named.json().error).toBe('Student name must be one line without control characters');
    const list = await school.api.get('/api/students');
    expect(list.json()).toHaveLength(0);
  });
});
