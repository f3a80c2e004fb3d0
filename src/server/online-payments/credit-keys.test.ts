import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type signUpSchool, type TestContext } from '../test/harness';
import { studentWithCredit } from './test-credit';

/**
 * Applying and refunding a student's credit (ruling 27) are idempotent on the dialog's clientId
 * (ruling 5): a second press, or the request helper's retry after a lost answer, applies or refunds
 * nothing more and answers what the first did.
 */
let ctx: TestContext;
let school: Awaited<ReturnType<typeof signUpSchool>>;
let ishaan: string;

beforeAll(async () => {
  ctx = await createTestApp({ now: new Date('2025-11-15T06:00:00.000Z') });
  ({ school, studentId: ishaan } = await studentWithCredit(ctx, 'Ishaan Mir'));
});
afterAll(() => ctx.close());

const credit = async () => (await school.api.get(`/api/students/${ishaan}/credit`)).json() as { balance: string; entries: Array<{ kind: string; amount: string; receiptNumber: string | null }> };

describe('credit applied or refunded by one press sent twice', () => {
  it('applies once: one receipt, the credit taken once', async () => {
    const body = { feeType: 'bus', feeMonth: '2025-08', amount: '300', clientId: 'credit-apply-91c2' };
    const together = await Promise.all([school.api.post(`/api/students/${ishaan}/credit/apply`, body), school.api.post(`/api/students/${ishaan}/credit/apply`, body)]);
    expect(together.map((r) => r.statusCode).sort()).toEqual([200, 201]);
    const again = await school.api.post(`/api/students/${ishaan}/credit/apply`, body);
    expect(again.statusCode).toBe(200);
    expect(new Set([...together, again].map((r) => r.json().receiptNumber)).size).toBe(1);
    const after = await credit();
    expect(after.balance).toBe('1200.00');
    expect(after.entries.filter((e) => e.kind === 'applied').map((e) => e.amount)).toEqual(['-300.00']);
    const receipts = (await school.api.get(`/api/students/${ishaan}/fee-status`)).json().receipts as Array<{ receiptNumber: string }>;
    expect(receipts.filter((r) => r.receiptNumber === again.json().receiptNumber)).toHaveLength(1);

    const changed = await school.api.post(`/api/students/${ishaan}/credit/apply`, { ...body, amount: '200' });
    expect(changed.statusCode).toBe(409);
    expect(changed.json().error).toBe('This save was already recorded with different amounts (the same clientId was used). Refresh the page to see what was saved.');
    expect((await credit()).balance).toBe('1200.00');
  });

  it('refunds once: one refund entry, the credit taken once', async () => {
    const body = { amount: '400', mode: 'cash', reason: 'Returned to the mother at the counter', clientId: 'credit-refund-5d0e' };
    const together = await Promise.all([school.api.post(`/api/students/${ishaan}/credit/refund`, body), school.api.post(`/api/students/${ishaan}/credit/refund`, body)]);
    expect(together.map((r) => r.statusCode).sort()).toEqual([200, 201]);
    const again = await school.api.post(`/api/students/${ishaan}/credit/refund`, body);
    expect(again.statusCode).toBe(200);
    expect(new Set([...together, again].map((r) => r.json().id)).size).toBe(1);
    const after = await credit();
    expect(after.balance).toBe('800.00');
    expect(after.entries.filter((e) => e.kind === 'refund').map((e) => e.amount)).toEqual(['-400.00']);

    const changed = await school.api.post(`/api/students/${ishaan}/credit/refund`, { ...body, mode: 'upi' });
    expect(changed.statusCode).toBe(409);
    expect((await credit()).balance).toBe('800.00');
    // without a key each refund is its own, as before
    expect((await school.api.post(`/api/students/${ishaan}/credit/refund`, { amount: '100', mode: 'cash', reason: 'Bus pass returned' })).statusCode).toBe(201);
    expect((await school.api.post(`/api/students/${ishaan}/credit/refund`, { amount: '100', mode: 'cash', reason: 'Bus pass returned' })).statusCode).toBe(201);
    expect((await credit()).balance).toBe('600.00');
  });
});
