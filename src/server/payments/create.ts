import type { Config } from '../config';
import { RazorpayProvider, SandboxProvider, type PaymentProvider } from './provider';

export function createPaymentProvider(config: Config): PaymentProvider {
  return config.razorpay
    ? new RazorpayProvider(config.razorpay.keyId, config.razorpay.keySecret, config.razorpay.webhookSecret)
    : new SandboxProvider(`sandbox:${config.sessionSecret}`);
}
