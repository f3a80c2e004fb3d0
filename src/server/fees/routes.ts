import type { FastifyInstance } from 'fastify';
import { monthlyFeeRoutes } from './monthly-routes';
import { feePaymentRoutes } from './payment-routes';
import { promotionRoutes } from './promotion-routes';
import { receiptRoutes } from './receipt-routes';
import { feeStatusRoutes } from './status-routes';
import { yearlyFeeRoutes } from './yearly-routes';

/** The fee ledger's HTTP API (issue 4): every screen that takes or shows money. See docs/api/fees.md. */
export async function feeRoutes(app: FastifyInstance): Promise<void> {
  await app.register(monthlyFeeRoutes);
  await app.register(yearlyFeeRoutes);
  await app.register(feePaymentRoutes);
  await app.register(receiptRoutes);
  await app.register(feeStatusRoutes);
  await app.register(promotionRoutes);
}
