import { describe, expect, it } from 'vitest';
import { initialReceiver, parseRememberedReceiver, receiverToRemember } from './receiver';

const clerk = { id: 'u-clerk', username: 'Rafiq Dar' };
const accountant = { id: 'u-accounts', username: 'Mehnaz Shah' };

describe('Received By on the fee forms', () => {
  it("starts with the signed-in person's name", () => {
    expect(initialReceiver(clerk, null)).toBe('Rafiq Dar');
  });

  it('keeps the name a person typed last, for that person', () => {
    const stored = JSON.stringify(receiverToRemember(clerk, '  Cashier Anjali '));
    expect(initialReceiver(clerk, parseRememberedReceiver(stored))).toBe('Cashier Anjali');
  });

  it("never puts one person's remembered name on another person's receipts", () => {
    const stored = JSON.stringify(receiverToRemember(clerk, 'Cashier Anjali'));
    expect(initialReceiver(accountant, parseRememberedReceiver(stored))).toBe('Mehnaz Shah');
  });

  it('ignores a plain name kept before names were tied to a person, and bad values', () => {
    expect(parseRememberedReceiver('Cashier Anjali')).toBeNull();
    expect(parseRememberedReceiver('{"userId":"u-clerk","name":"   "}')).toBeNull();
    expect(parseRememberedReceiver('{"name":"Cashier Anjali"}')).toBeNull();
    expect(parseRememberedReceiver(null)).toBeNull();
    expect(initialReceiver(clerk, parseRememberedReceiver('Cashier Anjali'))).toBe('Rafiq Dar');
  });

  it('remembers nothing for an empty box or without a signed-in person', () => {
    expect(receiverToRemember(clerk, '   ')).toBeNull();
    expect(receiverToRemember(null, 'Cashier Anjali')).toBeNull();
    expect(initialReceiver(null, { userId: 'u-clerk', name: 'Cashier Anjali' })).toBe('');
  });
});
