import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * The payment provider behind subscriptions (ruling 16): Razorpay when its keys are configured,
 * otherwise a built-in sandbox with the same flow (orders, checkout, HMAC signatures) so anyone can
 * try payments locally and the tests run end to end without the network.
 */
export interface PaymentProvider {
  readonly name: 'razorpay' | 'sandbox';
  /** public key id the browser's checkout needs */
  readonly keyId: string;
  createOrder(input: { amountPaise: number; receipt: string; notes: Record<string, string> }): Promise<{ id: string; amount: number; currency: 'INR' }>;
  /** checks razorpay_signature = HMAC-SHA256(order_id|payment_id, key secret) */
  verifyPayment(orderId: string, paymentId: string, signature: string): boolean;
  /** checks the X-Razorpay-Signature of a webhook body */
  verifyWebhook(rawBody: string, signature: string): boolean;
  /** health check: can the provider be reached */
  ping(): Promise<boolean>;
}

function hmacHex(secret: string, text: string): string {
  return createHmac('sha256', secret).update(text).digest('hex');
}

function safeEqualHex(expected: string, given: string): boolean {
  const a = Buffer.from(expected, 'utf8');
  const b = Buffer.from(given, 'utf8');
  return a.length === b.length && timingSafeEqual(a, b);
}

export function signPayment(secret: string, orderId: string, paymentId: string): string {
  return hmacHex(secret, `${orderId}|${paymentId}`);
}

export class RazorpayProvider implements PaymentProvider {
  readonly name = 'razorpay' as const;
  constructor(
    readonly keyId: string,
    private readonly keySecret: string,
    private readonly webhookSecret: string | undefined,
    private readonly fetchImpl: typeof fetch = fetch,
    /** the API's address and patience; tests point it at a local fake server */
    private readonly options: { baseUrl?: string; timeoutMs?: number } = {},
  ) {}

  private get baseUrl(): string {
    return (this.options.baseUrl ?? 'https://api.razorpay.com').replace(/\/$/, '');
  }

  private authHeader(): string {
    return `Basic ${Buffer.from(`${this.keyId}:${this.keySecret}`).toString('base64')}`;
  }

  async createOrder(input: { amountPaise: number; receipt: string; notes: Record<string, string> }) {
    const res = await this.fetchImpl(`${this.baseUrl}/v1/orders`, {
      method: 'POST',
      headers: { authorization: this.authHeader(), 'content-type': 'application/json' },
      body: JSON.stringify({ amount: input.amountPaise, currency: 'INR', receipt: input.receipt, notes: input.notes }),
      signal: AbortSignal.timeout(this.options.timeoutMs ?? 15_000),
    });
    if (!res.ok) throw new Error(`Razorpay order failed with ${res.status}`);
    let order: { id?: unknown; amount?: unknown; currency?: unknown };
    try {
      order = (await res.json()) as typeof order;
    } catch {
      throw new Error('Razorpay answered the order with something that is not JSON');
    }
    // an answer without an order id or with another amount is no order: never let a parent pay it
    if (typeof order.id !== 'string' || !order.id || order.amount !== input.amountPaise) {
      throw new Error('Razorpay answered the order without its id or with another amount');
    }
    return { id: order.id, amount: input.amountPaise, currency: 'INR' as const };
  }

  verifyPayment(orderId: string, paymentId: string, signature: string): boolean {
    return safeEqualHex(signPayment(this.keySecret, orderId, paymentId), signature);
  }

  verifyWebhook(rawBody: string, signature: string): boolean {
    return Boolean(this.webhookSecret) && safeEqualHex(hmacHex(this.webhookSecret!, rawBody), signature);
  }

  async ping(): Promise<boolean> {
    try {
      const res = await this.fetchImpl(`${this.baseUrl}/v1/orders?count=1`, {
        headers: { authorization: this.authHeader() },
        signal: AbortSignal.timeout(5_000),
      });
      return res.ok;
    } catch {
      return false;
    }
  }
}

/** The local stand-in: orders and payment ids are made here, signatures are real HMACs. */
export class SandboxProvider implements PaymentProvider {
  readonly name = 'sandbox' as const;
  readonly keyId = 'sandbox';
  constructor(private readonly secret: string) {}

  async createOrder(input: { amountPaise: number }) {
    return { id: `order_sbx_${randomBytes(9).toString('base64url')}`, amount: input.amountPaise, currency: 'INR' as const };
  }

  /** What the sandbox checkout returns to the browser after "paying". */
  pay(orderId: string): { razorpay_order_id: string; razorpay_payment_id: string; razorpay_signature: string } {
    const paymentId = `pay_sbx_${randomBytes(9).toString('base64url')}`;
    return { razorpay_order_id: orderId, razorpay_payment_id: paymentId, razorpay_signature: signPayment(this.secret, orderId, paymentId) };
  }

  verifyPayment(orderId: string, paymentId: string, signature: string): boolean {
    return safeEqualHex(signPayment(this.secret, orderId, paymentId), signature);
  }

  webhookSignature(rawBody: string): string {
    return hmacHex(`${this.secret}:webhook`, rawBody);
  }

  verifyWebhook(rawBody: string, signature: string): boolean {
    return safeEqualHex(this.webhookSignature(rawBody), signature);
  }

  async ping(): Promise<boolean> {
    return true;
  }
}
