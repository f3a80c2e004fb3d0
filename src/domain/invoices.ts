import { amountInWords, paise, type Paise } from './money';
import { GST_PERCENT, percentOf } from './plans';

/**
 * GST tax invoices for subscriptions (ruling 33). Pure rules: the financial year and number of an
 * invoice, the CGST/SGST or IGST split by place of supply, the GSTIN format, the list of states.
 */

/** States and union territories with their GST state codes (the first two digits of a GSTIN). */
export const INDIAN_STATES = [
  ['01', 'Jammu and Kashmir'],
  ['02', 'Himachal Pradesh'],
  ['03', 'Punjab'],
  ['04', 'Chandigarh'],
  ['05', 'Uttarakhand'],
  ['06', 'Haryana'],
  ['07', 'Delhi'],
  ['08', 'Rajasthan'],
  ['09', 'Uttar Pradesh'],
  ['10', 'Bihar'],
  ['11', 'Sikkim'],
  ['12', 'Arunachal Pradesh'],
  ['13', 'Nagaland'],
  ['14', 'Manipur'],
  ['15', 'Mizoram'],
  ['16', 'Tripura'],
  ['17', 'Meghalaya'],
  ['18', 'Assam'],
  ['19', 'West Bengal'],
  ['20', 'Jharkhand'],
  ['21', 'Odisha'],
  ['22', 'Chhattisgarh'],
  ['23', 'Madhya Pradesh'],
  ['24', 'Gujarat'],
  ['26', 'Dadra and Nagar Haveli and Daman and Diu'],
  ['27', 'Maharashtra'],
  ['29', 'Karnataka'],
  ['30', 'Goa'],
  ['31', 'Lakshadweep'],
  ['32', 'Kerala'],
  ['33', 'Tamil Nadu'],
  ['34', 'Puducherry'],
  ['35', 'Andaman and Nicobar Islands'],
  ['36', 'Telangana'],
  ['37', 'Andhra Pradesh'],
  ['38', 'Ladakh'],
] as const;

export type StateName = (typeof INDIAN_STATES)[number][1];
export const STATE_NAMES = INDIAN_STATES.map(([, name]) => name) as unknown as readonly [StateName, ...StateName[]];

export function stateCode(state: string): string | null {
  return INDIAN_STATES.find(([, name]) => name === state)?.[0] ?? null;
}

const GSTIN_CHARS = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';

/** The 15th character of a GSTIN: a base-36 check over the first 14 (weights 1, 2, 1, 2, …). */
export function gstinCheckChar(first14: string): string {
  let sum = 0;
  for (let i = 0; i < 14; i++) {
    const product = GSTIN_CHARS.indexOf(first14[i]!) * (i % 2 === 0 ? 1 : 2);
    sum += Math.floor(product / 36) + (product % 36);
  }
  return GSTIN_CHARS[(36 - (sum % 36)) % 36]!;
}

/** State code, PAN (5 letters, 4 digits, a letter), entity number, Z, check character. */
const GSTIN_SHAPE = /^(\d{2})[A-Z]{5}\d{4}[A-Z][1-9A-Z]Z[0-9A-Z]$/;

export const GSTIN_MESSAGES = {
  format: 'GSTIN must be 15 characters like 01ABCDE1234F1Z5 (state code, PAN, entity number, Z, check character)',
  check: 'This GSTIN has a typing mistake: its last character does not match the rest',
  state: "The GSTIN's first two digits must be the code of the school's state",
  stateRequired: 'Choose the state first: a GSTIN belongs to a state',
} as const;

/** Why a GSTIN is not valid for a school in `state`, or null. */
export function gstinProblem(gstin: string, state: string | null | undefined): string | null {
  const match = GSTIN_SHAPE.exec(gstin);
  if (!match) return GSTIN_MESSAGES.format;
  if (gstinCheckChar(gstin.slice(0, 14)) !== gstin[14]) return GSTIN_MESSAGES.check;
  if (!state) return GSTIN_MESSAGES.stateRequired;
  if (stateCode(state) !== match[1]) return GSTIN_MESSAGES.state;
  return null;
}

// ---------------------------------------------------------------------------------------------

const IST_OFFSET_MS = 330 * 60_000;

/** The Indian financial year (April–March, India time) of an instant: "2026-27". */
export function financialYear(at: Date): string {
  const ist = new Date(at.getTime() + IST_OFFSET_MS);
  const year = ist.getUTCMonth() >= 3 ? ist.getUTCFullYear() : ist.getUTCFullYear() - 1;
  return `${year}-${String((year + 1) % 100).padStart(2, '0')}`;
}

/** "SL/2026-27/000123". */
export function invoiceNumber(prefix: string, year: string, sequence: number): string {
  return `${prefix}/${year}/${String(sequence).padStart(6, '0')}`;
}

/** Whether an invoice is intra-state (CGST + SGST) or inter-state (IGST): the school's state against the supplier's. */
export function isIntraState(supplierState: string, buyerState: string | null): boolean {
  return buyerState !== null && buyerState === supplierState;
}

export interface TaxLines {
  cgst: Paise;
  sgst: Paise;
  igst: Paise;
}

/**
 * The 18% GST of an invoice split by place of supply (ruling 33): CGST 9% + SGST 9% within the
 * supplier's state, else IGST 18%. The tax is worked out once and halved, so both ways charge the
 * same total; an odd paisa goes to SGST.
 */
export function taxLines(gst: Paise, intraState: boolean): TaxLines {
  if (!intraState) return { cgst: paise(0), sgst: paise(0), igst: gst };
  const cgst = paise(Math.floor(gst / 2));
  return { cgst, sgst: paise(gst - cgst), igst: paise(0) };
}

/** The GST on a taxable value (18%, half-up to the paisa). */
export function gstOn(taxable: Paise): Paise {
  return percentOf(taxable, GST_PERCENT);
}

/**
 * An amount received that includes 18% GST (an offline payment): the taxable value is the
 * amount ÷ 1.18, rounded half-up to the paisa in integers; the tax is the rest, so the invoice
 * adds up to exactly what was received.
 */
export function splitInclusive(total: Paise): { taxable: Paise; gst: Paise } {
  const taxable = paise(Math.floor((total * 100 + (100 + GST_PERCENT) / 2) / (100 + GST_PERCENT)));
  return { taxable, gst: paise(total - taxable) };
}

export const totalInWords = amountInWords;
