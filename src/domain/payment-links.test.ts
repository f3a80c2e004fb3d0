import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { computeSessionAccount, findOverpayment, type AccountLine, type FeeStructureAmounts } from './fees';
import { MONTHLY_HEADS, YEARLY_HEADS } from './ledger';
import { paise } from './money';
import { allocateLinkPayment, linkDue, linkStatus, upiIntentUrl, type LinkFeeType } from './payment-links';
import { sessionMonths } from './sessions';

const months = sessionMonths('2025-04-01', '2026-03-31');
const structure: FeeStructureAmounts = {
  monthlyTuition: paise(150_000),
  yearly: { admission: paise(500_000), exam: paise(80_000), books: paise(250_000), uniform: paise(180_000), misc: paise(40_000) },
};

const lineArb: fc.Arbitrary<AccountLine> = fc.oneof(
  fc.record({
    head: fc.constantFrom(...MONTHLY_HEADS),
    period: fc.constantFrom(...months.map((m) => m.key)),
    amount: fc.integer({ min: 1, max: 150_000 }).map(paise),
    paidOn: fc.constant('2025-06-10'),
  }),
  fc.record({
    head: fc.constantFrom(...YEARLY_HEADS),
    period: fc.constant(null),
    amount: fc.integer({ min: 1, max: 80_000 }).map(paise),
    paidOn: fc.constant('2025-06-10'),
  }),
);
const linkArb = fc.oneof(
  fc.constant({ feeType: 'outstanding' as LinkFeeType, feeMonth: null }),
  fc.constant({ feeType: 'previous_balance' as LinkFeeType, feeMonth: null }),
  fc.record({ feeType: fc.constantFrom<LinkFeeType>(...MONTHLY_HEADS), feeMonth: fc.constantFrom(...months.map((m) => m.key)) }),
  fc.record({ feeType: fc.constantFrom<LinkFeeType>(...YEARLY_HEADS), feeMonth: fc.constant(null) }),
);

describe('allocateLinkPayment (rulings 26, 27)', () => {
  it('never loses or adds a paisa, and never writes a line beyond a due, whatever was paid at the counter', () => {
    fc.assert(
      fc.property(
        fc.array(lineArb, { maxLength: 12 }),
        linkArb,
        fc.integer({ min: 1, max: 5_000_000 }),
        fc.array(fc.integer({ min: 0, max: 300_000 }), { maxLength: 2 }),
        (lines, link, amount, carriedAmounts) => {
          const account = computeSessionAccount({ months, asOfMonth: '2025-11', structure, busFee: paise(60_000), lines });
          const carried = carriedAmounts.map((r, i) => ({ sessionId: `s${i}`, academicYear: `202${i}-202${i + 1}`, remaining: paise(r) }));
          const split = allocateLinkPayment(link, account, carried, paise(amount));
          const written = split.claims.reduce((s, c) => s + c.amount, 0) + split.carried.reduce((s, c) => s + c.amount, 0);
          expect(written + split.credit).toBe(amount);
          expect(split.credit).toBeGreaterThanOrEqual(0);
          expect(findOverpayment(account, split.claims)).toBeNull();
          for (const c of split.carried) expect(c.amount).toBeLessThanOrEqual(carried.find((r) => r.sessionId === c.sessionId)!.remaining);
          // what a link may ask is exactly what a payment of that size would pay without credit
          const due = linkDue(link, account, carried);
          expect(allocateLinkPayment(link, account, carried, due).credit).toBe(0);
        },
      ),
    );
  });

  it('the whole outstanding equals the till-date outstanding of ruling 6 plus carried balances', () => {
    fc.assert(
      fc.property(fc.array(lineArb, { maxLength: 12 }), (lines) => {
        const account = computeSessionAccount({ months, asOfMonth: '2025-11', structure, busFee: paise(60_000), lines });
        const carried = [{ sessionId: 'old', academicYear: '2024-2025', remaining: paise(12_345) }];
        expect(linkDue({ feeType: 'outstanding', feeMonth: null }, account, carried)).toBe(account.tillDate.outstanding + 12_345);
      }),
    );
  });
});

describe('links', () => {
  it('an active link past its expiry is expired; paid and cancelled stay what they are', () => {
    const now = new Date('2025-11-15T06:00:00Z');
    expect(linkStatus('active', new Date('2025-11-15T06:00:01Z'), now)).toBe('active');
    expect(linkStatus('active', now, now)).toBe('expired');
    expect(linkStatus('paid', new Date('2025-01-01'), now)).toBe('paid');
    expect(linkStatus('cancelled', new Date('2030-01-01'), now)).toBe('cancelled');
  });

  it('the UPI intent carries the amount in rupees with two places, escaped', () => {
    expect(upiIntentUrl({ vpa: 'gv@sbi', payeeName: 'Green Valley & Co', amount: paise(150_005), note: 'Tuition Fee for April 2025', reference: 'SL0A' })).toBe(
      'upi://pay?pa=gv%40sbi&pn=Green%20Valley%20%26%20Co&am=1500.05&cu=INR&tn=Tuition%20Fee%20for%20April%202025&tr=SL0A',
    );
  });
});
