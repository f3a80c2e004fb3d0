import { FlaskConicalIcon } from 'lucide-react';
import { useCallback, useRef, useState } from 'react';
import { formatINR, paise } from '@/domain/money';
import { orderIdOf, openRazorpayCheckout, type CheckoutOrder, type PaymentResult } from '@/web/lib/checkout';
import { api } from '@/web/lib/request';
import { rupees } from '@/web/lib/format';
import { Alert, AlertDescription } from './ui/alert';
import { Badge } from './ui/badge';
import { Button } from './ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from './ui/dialog';

type Outcome = PaymentResult | 'dismissed';
interface Pending {
  order: CheckoutOrder;
  resolve: (outcome: Outcome) => void;
  reject: (error: unknown) => void;
}

/** The sandbox dialog's texts (ruling 29: a test checkout always says so). */
const SANDBOX_TEXTS = {
  title: 'Sandbox payment',
  badge: 'Test payments',
  notice:
    'This server takes payments through the built-in sandbox: no money moves, but the order, signature and activation are real. A live server uses Razorpay.',
} as const;

/** How the sandbox dialog pays and what it says: a parent paying a link has no session. */
export interface SandboxCheckoutOptions {
  /** signs the sandbox order; by default the school's own `/api/payments/sandbox/checkout` with its session */
  pay?: (orderId: string) => Promise<PaymentResult>;
  /** what the test-payment notice says (ruling 29: a test checkout always says so) */
  notice?: string;
}

const schoolSandboxPay = (orderId: string) => api.post<PaymentResult>('/api/payments/sandbox/checkout', { orderId });

/**
 * Opens the payment window for an order: Razorpay's, or the sandbox's own dialog when the server
 * uses the sandbox. Calls go with the signed-in session unless `options.pay` says otherwise.
 * Render `dialog` somewhere in the page.
 */
export function useCheckout(options: SandboxCheckoutOptions = {}) {
  const [pending, setPending] = useState<Pending | null>(null);
  const open = useCallback(
    (order: CheckoutOrder, details: { name: string; email?: string; schoolName?: string }): Promise<Outcome> => {
      if (order.provider !== 'sandbox') return openRazorpayCheckout(order, details);
      return new Promise<Outcome>((resolve, reject) => setPending({ order, resolve, reject }));
    },
    [],
  );
  const settle = (fn: (p: Pending) => void) => {
    if (pending) fn(pending);
    setPending(null);
  };
  const dialog = pending ? (
    <SandboxCheckoutDialog
      order={pending.order}
      pay={options.pay ?? schoolSandboxPay}
      notice={options.notice ?? SANDBOX_TEXTS.notice}
      onPaid={(result) => settle((p) => p.resolve(result))}
      onDismiss={() => settle((p) => p.resolve('dismissed'))}
      onError={(error) => settle((p) => p.reject(error))}
    />
  ) : null;
  return { open, dialog };
}

function SandboxCheckoutDialog({
  order,
  pay: payOrder,
  notice,
  onPaid,
  onDismiss,
  onError,
}: {
  order: CheckoutOrder;
  pay: (orderId: string) => Promise<PaymentResult>;
  notice: string;
  onPaid: (result: PaymentResult) => void;
  onDismiss: () => void;
  onError: (error: unknown) => void;
}) {
  const [busy, setBusy] = useState(false);
  // a click while the call runs must not settle the checkout twice
  const done = useRef(false);
  const pay = async () => {
    setBusy(true);
    try {
      const result = await payOrder(orderIdOf(order) ?? '');
      done.current = true;
      onPaid(result);
    } catch (error) {
      done.current = true;
      onError(error);
    }
  };
  const total = formatINR(paise(order.amount));
  return (
    <Dialog
      open
      onOpenChange={(open) => {
        if (!open && !busy && !done.current) onDismiss();
      }}
    >
      <DialogContent>
        <DialogHeader>
          <DialogTitle className="flex flex-wrap items-center gap-2">
            <FlaskConicalIcon className="size-5 text-primary" />
            {SANDBOX_TEXTS.title}
            <Badge variant="warning">{SANDBOX_TEXTS.badge}</Badge>
          </DialogTitle>
          <DialogDescription>{order.description ?? 'Subscription'}</DialogDescription>
        </DialogHeader>
        <dl className="grid gap-1 rounded-lg bg-muted/60 p-3 text-sm">
          {order.price ? (
            <>
              <Line label="Plan price" value={rupees(order.price.base)} />
              {order.price.discount !== '0.00' ? <Line label="First subscription discount" value={`−${rupees(order.price.discount)}`} /> : null}
              {order.price.credit && order.price.credit !== '0.00' ? <Line label="Credit for unused days" value={`−${rupees(order.price.credit)}`} /> : null}
              <Line label="GST (18%)" value={rupees(order.price.gst)} />
            </>
          ) : null}
          <div className="mt-1 flex justify-between border-t pt-2 font-semibold">
            <dt>Total</dt>
            <dd>{total}</dd>
          </div>
        </dl>
        <Alert variant="info">
          <AlertDescription>{notice}</AlertDescription>
        </Alert>
        <DialogFooter>
          <Button variant="outline" onClick={onDismiss} disabled={busy}>Cancel</Button>
          <Button onClick={pay} disabled={busy}>{busy ? 'Paying...' : `Pay ${total}`}</Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}

function Line({ label, value }: { label: string; value: string }) {
  return (
    <div className="flex justify-between gap-2">
      <dt className="text-muted-foreground">{label}</dt>
      <dd className="tabular-nums">{value}</dd>
    </div>
  );
}
