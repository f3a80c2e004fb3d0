/** A count typed in a box: whole, not negative; anything else counts as nothing. */
export function parseCount(text: string): number {
  const trimmed = text.trim();
  if (!/^\d{1,6}$/.test(trimmed)) return 0;
  return Number(trimmed);
}
