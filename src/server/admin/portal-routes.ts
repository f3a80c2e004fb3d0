import type { FastifyInstance } from 'fastify';
import { analyticsRoutes } from './analytics-routes';
import { healthRoutes } from './health-routes';
import { schoolDetailRoutes } from './schools-detail-routes';
import { securityRoutes } from './security-routes';

/** The master portal's read views and security actions (issue 12 item 2): one registration in app.ts. */
export async function portalRoutes(app: FastifyInstance): Promise<void> {
  await app.register(healthRoutes);
  await app.register(analyticsRoutes);
  await app.register(securityRoutes);
  await app.register(schoolDetailRoutes);
}
