/**
 * Money is a whole number of paise everywhere inside the product. Rupees appear only on the wire
 * (decimal strings with two places) and on screen (en-IN). Nothing here touches floating point
 * arithmetic on amounts: parsing works on the digits of the decimal string.
 */
export type Paise = number & { readonly __brand: 'Paise' };

/** Largest amount the product accepts anywhere: ₹10,00,00,000.00 (ten crore). */
export const MAX_PAISE = 10_000_000_000 as Paise;

export function paise(value: number): Paise {
  if (!Number.isSafeInteger(value)) {
    throw new TypeError(`Money must be a whole number of paise, got ${value}`);
  }
  return value as Paise;
}

export const ZERO = 0 as Paise;

export function addPaise(...values: Paise[]): Paise {
  let sum = 0;
  for (const v of values) sum += v;
  return paise(sum);
}

export function subtractPaise(a: Paise, b: Paise): Paise {
  return paise(a - b);
}

const RUPEES_PATTERN = /^(-)?(\d{1,13})(?:\.(\d{1,2}))?$/;

/**
 * Parses a rupee amount typed by a person or sent by a client: "1500", "1500.5", "1,500.50",
 * or a JSON number with at most two decimals. Returns null when the text is not an amount.
 * Numbers are turned back into their shortest decimal text, never multiplied by 100.
 */
export function parseRupees(input: string | number): Paise | null {
  let text: string;
  if (typeof input === 'number') {
    if (!Number.isFinite(input)) return null;
    text = String(input);
    if (/e/i.test(text)) return null;
  } else {
    text = input.trim().replace(/,/g, '');
  }
  const match = RUPEES_PATTERN.exec(text);
  if (!match) return null;
  const [, sign, whole, fraction = ''] = match;
  const value = Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
  return paise(sign ? -value : value);
}

/**
 * An amount the product itself wrote ("1234.50", "-0.50", or a test's 1500) in paise: `parseRupees`
 * that throws instead of answering null, since anything else is a fault of whoever wrote it.
 */
export function paiseFromRupees(input: string | number): Paise {
  const value = parseRupees(input);
  if (value === null) throw new Error(`not an amount: ${String(input)}`);
  return value;
}

/** "1234.50" — the wire format for amounts. */
export function toRupeeString(amount: Paise): string {
  const negative = amount < 0;
  const abs = Math.abs(amount);
  const whole = Math.floor(abs / 100);
  const fraction = String(abs % 100).padStart(2, '0');
  return `${negative ? '-' : ''}${whole}.${fraction}`;
}

function groupIndian(whole: number): string {
  const digits = String(whole);
  if (digits.length <= 3) return digits;
  const last3 = digits.slice(-3);
  const rest = digits.slice(0, -3).replace(/\B(?=(\d{2})+(?!\d))/g, ',');
  return `${rest},${last3}`;
}

/** "₹1,23,456.00"; with `decimals: false`, "₹1,23,456" (rounded half-up to the rupee). */
export function formatINR(amount: Paise, options: { decimals?: boolean } = {}): string {
  const negative = amount < 0;
  const abs = Math.abs(amount);
  if (options.decimals === false) {
    const rupees = Math.floor((abs + 50) / 100);
    return `${negative ? '-' : ''}₹${groupIndian(rupees)}`;
  }
  const whole = Math.floor(abs / 100);
  const fraction = String(abs % 100).padStart(2, '0');
  return `${negative ? '-' : ''}₹${groupIndian(whole)}.${fraction}`;
}

/**
 * Scales an amount by a percentage given as a decimal string ("10", "7.5"), rounding half-up to
 * the paisa: 10% on ₹1,000 gives ₹1,100. Integer arithmetic only.
 */
export function increaseByPercent(amount: Paise, percent: string): Paise {
  const match = /^(\d{1,3})(?:\.(\d{1,2}))?$/.exec(percent.trim());
  if (!match) throw new RangeError(`Not a percentage: ${percent}`);
  const hundredths = Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
  // amount * (10000 + hundredths) / 10000, rounded half-up
  const scaled = amount * (10_000 + hundredths);
  return paise(Math.floor((scaled + 5_000) / 10_000));
}

/** Rounding steps an annual increment may use: whole rupees, fives or tens. */
export const ROUNDING_STEPS = [1, 5, 10] as const;
export type RoundingStep = (typeof ROUNDING_STEPS)[number];

/** Rounds half-up to a multiple of `step` rupees: ₹1,654.50 → ₹1,655 (₹1), ₹1,655 (₹5), ₹1,650 (₹10). */
export function roundToRupees(amount: Paise, step: RoundingStep): Paise {
  const unit = step * 100;
  return paise(Math.floor((amount + unit / 2) / unit) * unit);
}

/** An annual increment: the percentage raise, then rounded to the chosen step of rupees. */
export function raiseFee(amount: Paise, percent: string, step: RoundingStep): Paise {
  return roundToRupees(increaseByPercent(amount, percent), step);
}

const ONES = [
  '', 'One', 'Two', 'Three', 'Four', 'Five', 'Six', 'Seven', 'Eight', 'Nine', 'Ten', 'Eleven',
  'Twelve', 'Thirteen', 'Fourteen', 'Fifteen', 'Sixteen', 'Seventeen', 'Eighteen', 'Nineteen',
];
const TENS = ['', '', 'Twenty', 'Thirty', 'Forty', 'Fifty', 'Sixty', 'Seventy', 'Eighty', 'Ninety'];

function belowHundred(n: number): string {
  if (n < 20) return ONES[n] ?? '';
  const tens = TENS[Math.floor(n / 10)] ?? '';
  const ones = n % 10;
  return ones ? `${tens}-${ONES[ones]}` : tens;
}

function belowThousand(n: number): string {
  const hundreds = Math.floor(n / 100);
  const rest = n % 100;
  const parts: string[] = [];
  if (hundreds) parts.push(`${ONES[hundreds]} Hundred`);
  if (rest) parts.push(belowHundred(rest));
  return parts.join(' ');
}

function wholeInWords(n: number): string {
  if (n === 0) return 'Zero';
  const crore = Math.floor(n / 10_000_000);
  const lakh = Math.floor((n % 10_000_000) / 100_000);
  const thousand = Math.floor((n % 100_000) / 1000);
  const rest = n % 1000;
  const parts: string[] = [];
  if (crore) parts.push(`${wholeInWords(crore)} Crore`);
  if (lakh) parts.push(`${belowHundred(lakh)} Lakh`);
  if (thousand) parts.push(`${belowHundred(thousand)} Thousand`);
  if (rest) parts.push(belowThousand(rest));
  return parts.join(' ');
}

/** "Rupees One Lakh Twenty-Three Thousand Four Hundred Fifty-Six and Fifty Paise Only". */
export function amountInWords(amount: Paise): string {
  const abs = Math.abs(amount);
  const rupees = Math.floor(abs / 100);
  const paisepart = abs % 100;
  let words = `Rupees ${wholeInWords(rupees)}`;
  if (paisepart) words += ` and ${belowHundred(paisepart)} Paise`;
  return `${amount < 0 ? 'Minus ' : ''}${words} Only`;
}
