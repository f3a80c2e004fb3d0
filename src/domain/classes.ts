/** Classes and sections (ruling 7): one ordered list everywhere. */
export const CLASSES = [
  'Nursery', 'LKG', 'UKG',
  'Class 1', 'Class 2', 'Class 3', 'Class 4', 'Class 5', 'Class 6',
  'Class 7', 'Class 8', 'Class 9', 'Class 10', 'Class 11', 'Class 12',
] as const;
export type ClassName = (typeof CLASSES)[number];

export const SECTIONS = ['A', 'B', 'C', 'D', 'E', 'F'] as const;
export type Section = (typeof SECTIONS)[number];

const ROMAN: Record<string, number> = {
  I: 1, II: 2, III: 3, IV: 4, V: 5, VI: 6, VII: 7, VIII: 8, IX: 9, X: 10, XI: 11, XII: 12,
};

/**
 * Turns the spellings schools type into the canonical class name: `1st`, `IST`, `I`, `Class 1`,
 * `Grade 1`, `class-1`, `12th`, `XII`, `nursery`, `L.K.G.`. Returns null for anything else.
 */
export function normaliseClass(input: string | null | undefined): ClassName | null {
  if (!input) return null;
  const text = input.trim().toUpperCase().replace(/\./g, '').replace(/[\s_-]+/g, ' ');
  if (!text) return null;
  if (text === 'NURSERY' || text === 'NUR' || text === 'PRE NURSERY') return 'Nursery';
  if (text === 'LKG' || text === 'L K G') return 'LKG';
  if (text === 'UKG' || text === 'U K G') return 'UKG';
  const stripped = text.replace(/^(CLASS|GRADE|STD|STANDARD)\s*/, '').trim();
  let n: number | undefined;
  if (/^\d{1,2}$/.test(stripped)) n = Number(stripped);
  else if (/^\d{1,2}(ST|ND|RD|TH)$/.test(stripped)) n = Number(stripped.replace(/\D/g, ''));
  else if (stripped === 'IST') n = 1;
  else if (ROMAN[stripped] !== undefined) n = ROMAN[stripped];
  if (n === undefined || n < 1 || n > 12) return null;
  return `Class ${n}` as ClassName;
}

export function normaliseSection(input: string | null | undefined): Section | null {
  const s = (input ?? '').trim().toUpperCase() || 'A';
  return (SECTIONS as readonly string[]).includes(s) ? (s as Section) : null;
}

export function classIndex(name: ClassName): number {
  return CLASSES.indexOf(name);
}

/** The class a student moves to at promotion; null after Class 12 (they become passouts). */
export function nextClass(name: ClassName): ClassName | null {
  const i = classIndex(name);
  return i >= 0 && i < CLASSES.length - 1 ? CLASSES[i + 1]! : null;
}

/** Sorts by the class order, unknown names last. */
export function compareClasses(a: string, b: string): number {
  const ia = CLASSES.indexOf(a as ClassName);
  const ib = CLASSES.indexOf(b as ClassName);
  return (ia < 0 ? 99 : ia) - (ib < 0 ? 99 : ib);
}
