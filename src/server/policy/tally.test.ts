import { XMLParser } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseRupees } from '../../domain/money';
import { DEFAULT_TALLY_MAPPING } from '../../domain/tally';
import { createTestApp, type TestContext } from '../test/harness';
import { buildFixtureSchool, NOW, type FixtureSchool } from '../reports/test-school';

let ctx: TestContext;
let fx: FixtureSchool;
beforeAll(async () => {
  ctx = await createTestApp({ now: NOW });
  fx = await buildFixtureSchool(ctx);
});
afterAll(() => ctx.close());

const PERIOD = 'fromDate=2026-04-01&toDate=2026-11-30';
const paiseOf = (amount: string) => (amount.startsWith('-') ? -parseRupees(amount.slice(1))! : parseRupees(amount)!);

interface Entry { LEDGERNAME: string; ISDEEMEDPOSITIVE: string; AMOUNT: string }
interface Voucher { DATE: string; VOUCHERTYPENAME: string; VOUCHERNUMBER: string; NARRATION: string; 'ALLLEDGERENTRIES.LIST': Entry[] }

async function vouchersOf(query: string): Promise<Voucher[]> {
  const res = await fx.school.api.get(`/api/exports/tally?${query}`);
  expect(res.statusCode, res.body).toBe(200);
  expect(res.headers['content-type']).toContain('application/xml');
  const doc = new XMLParser({ isArray: (name) => name === 'TALLYMESSAGE' || name === 'ALLLEDGERENTRIES.LIST', parseTagValue: false }).parse(res.body);
  const messages = doc.ENVELOPE.BODY.IMPORTDATA.REQUESTDATA.TALLYMESSAGE as Array<{ VOUCHER: Voucher }>;
  return messages.map((m) => m.VOUCHER);
}

describe('GET /api/exports/tally', () => {
  it('writes balanced vouchers whose totals equal the financial report of the period', async () => {
    const vouchers = await vouchersOf(PERIOD);
    expect(vouchers.length).toBeGreaterThan(0);
    for (const v of vouchers) {
      const entries = v['ALLLEDGERENTRIES.LIST'];
      expect(entries.reduce((s, e) => s + paiseOf(e.AMOUNT), 0), v.VOUCHERNUMBER).toBe(0);
      for (const e of entries) expect(e.ISDEEMEDPOSITIVE).toBe(paiseOf(e.AMOUNT) < 0 ? 'Yes' : 'No');
      expect(v.DATE).toMatch(/^2026(0[4-9]|1[01])\d{2}$/);
    }
    const report = (await fx.school.api.get(`/api/reports/financial?${PERIOD}`)).json().summary;
    const incomeLedgers = new Set(Object.values(DEFAULT_TALLY_MAPPING.heads));
    const expenseLedgers = new Set(Object.values(DEFAULT_TALLY_MAPPING.expenseCategories));
    const sum = (pick: (e: Entry) => boolean) => vouchers.flatMap((v) => v['ALLLEDGERENTRIES.LIST']).filter(pick).reduce((s, e) => s + paiseOf(e.AMOUNT), 0);
    const feeFigures = ['totalMonthlyIncome', 'totalYearlyIncome', 'totalOtherIncome', 'totalArrearsCollected'].reduce((s, k) => s + paiseOf(report[k]), 0);
    // income ledgers are credited (positive), expense ledgers debited (negative)
    expect(sum((e) => incomeLedgers.has(e.LEDGERNAME))).toBe(feeFigures);
    expect(-sum((e) => expenseLedgers.has(e.LEDGERNAME))).toBe(paiseOf(report.totalExpenses));
    // Meera's cancelled April receipt: the original and its reversal, which cancel out
    const reversal = vouchers.find((v) => v.VOUCHERNUMBER.endsWith('/C'));
    expect(reversal).toBeDefined();
    expect(reversal!.VOUCHERTYPENAME).toBe('Payment');
    expect(reversal!.NARRATION).toContain('Cancelled receipt');
    const original = vouchers.find((v) => v.VOUCHERNUMBER === reversal!.VOUCHERNUMBER.replace(/\/C$/, ''));
    expect(original?.VOUCHERTYPENAME).toBe('Receipt');
    expect(vouchers.filter((v) => v.VOUCHERTYPENAME === 'Payment' && v.VOUCHERNUMBER.startsWith('EXP/'))).toHaveLength(3);
  });

  it('names ledgers as the school maps them, and refuses a bad period', async () => {
    const put = await fx.school.api.put('/api/exports/tally/mapping', { modes: { cash: 'Cash-in-hand' }, heads: { tuition: 'Tuition Fees Received' } });
    expect(put.statusCode).toBe(200);
    expect(put.json().modes).toMatchObject({ cash: 'Cash-in-hand', upi: 'Bank' });
    const names = new Set((await vouchersOf(PERIOD)).flatMap((v) => v['ALLLEDGERENTRIES.LIST'].map((e) => e.LEDGERNAME)));
    expect(names.has('Tuition Fees Received')).toBe(true);
    expect(names.has('Tuition Fee')).toBe(false);
    expect((await fx.school.api.put('/api/exports/tally/mapping', { heads: { tuition: '' } })).statusCode).toBe(400);
    expect((await fx.school.api.get('/api/exports/tally?fromDate=2026-05-02&toDate=2026-05-01')).statusCode).toBe(400);
  });
});

describe('GET /api/exports/journal.csv', () => {
  it('lists every voucher line with debits equal to credits', async () => {
    const res = await fx.school.api.get(`/api/exports/journal.csv?${PERIOD}`);
    expect(res.statusCode).toBe(200);
    const rows = res.body.replace(/^\uFEFF/, '').trim().split('\r\n').map((l) => l.split(','));
    expect(rows[0]).toEqual(['Date', 'Voucher No', 'Account', 'Debit', 'Credit', 'Narration']);
    const debit = rows.slice(1).reduce((s, r) => s + (r[3] ? parseRupees(r[3])! : 0), 0);
    const credit = rows.slice(1).reduce((s, r) => s + (r[4] ? parseRupees(r[4])! : 0), 0);
    expect(debit).toBe(credit);
    expect(debit).toBeGreaterThan(0);
  });
});
