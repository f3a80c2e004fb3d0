import { PgTransaction } from 'drizzle-orm/pg-core';
import type { Db } from '../db/client';

type Reads<T extends readonly unknown[]> = { [K in keyof T]: () => Promise<T[K]> };

/**
 * Independent reads: at once on the pool (each on its own connection), one after another inside a
 * transaction, whose single connection must not be sent a query while another is running.
 */
export async function readTogether<T extends readonly unknown[]>(db: Db, ...reads: Reads<T>): Promise<T> {
  if (!(db instanceof PgTransaction)) return (await Promise.all(reads.map((read) => read()))) as unknown as T;
  const results: unknown[] = [];
  for (const read of reads) results.push(await read());
  return results as unknown as T;
}
