/**
 * The payment window for subscription orders (ruling 16): Razorpay's Checkout when the server
 * uses Razorpay, the built-in sandbox otherwise. Both return the same three signed fields, which
 * the caller sends to the server for verification.
 */

export const RAZORPAY_SCRIPT = 'https://checkout.razorpay.com/v1/checkout.js';

export interface PaymentResult {
  razorpay_order_id: string;
  razorpay_payment_id: string;
  razorpay_signature: string;
}

/** What the order call answers (POST /api/payments/create-subscription-order). */
export interface CheckoutOrder {
  orderId?: string;
  id?: string;
  amount: number;
  currency?: string;
  keyId?: string;
  provider?: 'razorpay' | 'sandbox';
  description?: string;
  price?: { base: string; discount: string; credit?: string; gst: string; total: string; undiscountedTotal: string };
  /** what the order buys (ruling 28) */
  change?: { kind: 'start' | 'extend' | 'upgrade' | 'queue'; startDate: string; endDate: string };
  /** the sandbox takes the payment: no money moves (ruling 29) */
  testMode?: boolean;
}

export const orderIdOf = (order: Partial<CheckoutOrder>): string | undefined => order.orderId ?? order.id;

/** Thrown when the provider's script cannot be loaded (offline, blocked): "Payment system not loaded". */
export class CheckoutUnavailableError extends Error {
  constructor() {
    super('Payment system not loaded. Please refresh and try again.');
  }
}

interface RazorpayOptions {
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

declare global {
  interface Window {
    Razorpay?: new (options: RazorpayOptions) => { open(): void };
  }
}

let scriptLoad: Promise<void> | null = null;

/** Adds Razorpay's script once; a failed load can be retried. */
export function loadRazorpayScript(): Promise<void> {
  if (window.Razorpay) return Promise.resolve();
  scriptLoad ??= new Promise<void>((resolve, reject) => {
    const script = document.createElement('script');
    script.src = RAZORPAY_SCRIPT;
    script.async = true;
    script.onload = () => (window.Razorpay ? resolve() : reject(new CheckoutUnavailableError()));
    script.onerror = () => {
      script.remove();
      scriptLoad = null;
      reject(new CheckoutUnavailableError());
    };
    document.head.appendChild(script);
  });
  return scriptLoad;
}

/**
 * Opens Razorpay's window and settles when the person pays (with the fields to verify) or closes
 * it ('dismissed'). A declined attempt stays inside the window, which offers a retry.
 */
export async function openRazorpayCheckout(
  order: CheckoutOrder,
  details: { name: string; email?: string; schoolName?: string },
): Promise<PaymentResult | 'dismissed'> {
  await loadRazorpayScript();
  const Checkout = window.Razorpay;
  const orderId = orderIdOf(order);
  if (!Checkout || !orderId || !order.keyId) throw new CheckoutUnavailableError();
  return new Promise((resolve) => {
    new Checkout({
      key: order.keyId!,
      amount: order.amount,
      currency: order.currency ?? 'INR',
      name: details.name,
      description: order.description ?? 'Subscription',
      order_id: orderId,
      prefill: { email: details.email, name: details.schoolName },
      handler: resolve,
      modal: { ondismiss: () => resolve('dismissed') },
    }).open();
  });
}
