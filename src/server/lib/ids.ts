const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Ids in paths are uuids; anything else names no row, so routes answer 404 rather than 400 or 500. */
export function isUuid(value: string): boolean {
  return UUID.test(value);
}
