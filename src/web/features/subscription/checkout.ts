import type { PaymentResult } from './api';

/** Razorpay's Checkout, loaded from its host on demand (platform §2). */
export const RAZORPAY_SCRIPT = 'https://checkout.razorpay.com/v1/checkout.js';
export const PROVIDER_NAME = 'Razorpay';

interface CheckoutOptions {
  key: string;
  amount: number;
  currency: string;
  name: string;
  description: string;
  order_id: string;
  prefill?: { email?: string; name?: string };
  theme?: { color?: string };
  handler: (response: PaymentResult) => void;
  modal?: { ondismiss?: () => void };
}

interface CheckoutInstance {
  open(): void;
}

declare global {
  interface Window {
    Razorpay?: new (options: CheckoutOptions) => CheckoutInstance;
  }
}

const loads = new Map<string, Promise<void>>();

/** Adds the checkout script once per URL; rejects when it cannot be fetched (offline, blocked). */
export function loadCheckoutScript(src: string = RAZORPAY_SCRIPT): Promise<void> {
  if (window.Razorpay) return Promise.resolve();
  let load = loads.get(src);
  if (!load) {
    load = new Promise<void>((resolve, reject) => {
      const script = document.createElement('script');
      script.src = src;
      script.async = true;
      script.onload = () => (window.Razorpay ? resolve() : reject(new Error('Checkout did not start')));
      script.onerror = () => {
        script.remove();
        loads.delete(src);
        reject(new Error('Checkout script could not be loaded'));
      };
      document.head.appendChild(script);
    });
    loads.set(src, load);
  }
  return load;
}

/**
 * Opens the payment window and settles when the person pays (with the three fields to verify) or
 * closes it ('dismissed'). A declined attempt stays inside the window, which offers a retry.
 */
export function openCheckout(options: Omit<CheckoutOptions, 'handler' | 'modal'>): Promise<PaymentResult | 'dismissed'> {
  const Checkout = window.Razorpay;
  if (!Checkout) return Promise.reject(new Error('Payment system not loaded. Please refresh and try again.'));
  return new Promise((resolve, reject) => {
    try {
      new Checkout({ ...options, handler: resolve, modal: { ondismiss: () => resolve('dismissed') } }).open();
    } catch (error) {
      reject(error instanceof Error ? error : new Error(String(error)));
    }
  });
}
