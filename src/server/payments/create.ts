import type { Config } from '../config';
import { RazorpayProvider, SandboxProvider, type PaymentProvider } from './provider';

/** The provider the configuration chose (ruling 29): never the sandbox by accident in production, see config.ts. */
export function createPaymentProvider(config: Config): PaymentProvider {
  if (config.paymentsProvider === 'razorpay' && config.razorpay) {
    return new RazorpayProvider(config.razorpay.keyId, config.razorpay.keySecret, config.razorpay.webhookSecret);
  }
  return new SandboxProvider(`sandbox:${config.sessionSecret}`);
}
