import type { FastifyInstance } from 'fastify';
import { documentRoutes } from './document-routes';
import { financialRoutes } from './financial-routes';

/** Reports (operations §2 Reports tab and Financial report dialog, §7): every figure from the ledger. */
export async function reportRoutes(app: FastifyInstance): Promise<void> {
  await app.register(financialRoutes);
  await app.register(documentRoutes);
}
