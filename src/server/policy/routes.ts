import type { FastifyInstance } from 'fastify';
import { concessionRegisterRoutes } from './concession-register-routes';
import { concessionRoutes } from './concession-routes';
import { fineRoutes } from './fine-routes';
import { planRoutes } from './plan-routes';
import { statementRoutes } from './statement-routes';
import { tallyRoutes } from './tally-routes';

/** Fee policy (issue 16): concessions, late fines, instalment plans, the Tally export. See docs/api/fee-policy.md. */
export async function feePolicyRoutes(app: FastifyInstance): Promise<void> {
  await app.register(concessionRoutes);
  await app.register(fineRoutes);
  await app.register(planRoutes);
  await app.register(tallyRoutes);
  await app.register(statementRoutes);
  await app.register(concessionRegisterRoutes);
}
