import { describe, expect, it } from 'vitest';
import { dashboardTabHref, feeStructureMissing } from './guard-alert';

describe('Fee Structure Missing for Class {class}', () => {
  it('names the class once, for canonical names and the early years', () => {
    expect(feeStructureMissing('Class 5').title).toBe('Fee Structure Missing for Class 5');
    expect(feeStructureMissing('LKG').title).toBe('Fee Structure Missing for Class LKG');
    expect(feeStructureMissing('Class 12', '2026-2027').description).toContain('Class 12 for 2026-2027');
    expect(feeStructureMissing('Class 5').tab).toBe('fee-structure');
    expect(dashboardTabHref('fee-structure')).toBe('/school/dashboard?tab=fee-structure');
  });
});
