import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { COUNTER_PAYMENT_MODES, paymentDetailsProblem } from '@/domain/ledger';
import { Input, NativeSelect } from '@/web/components/ui/input';
import { Field } from '@/web/components/ui/label';
import { meQuery } from '@/web/lib/me-api';
import { cn } from '@/web/lib/utils';
import { initialReceiver, parseRememberedReceiver, receiverToRemember, type CounterUser, type RememberedReceiver } from './receiver';

export type CounterMode = (typeof COUNTER_PAYMENT_MODES)[number];

/** How the money came in and who took it: printed on the receipt. */
export interface PaymentDetailsValue {
  paymentMode: CounterMode;
  chequeNumber: string;
  bankName: string;
  upiReference: string;
  transactionReference: string;
  receivedBy: string;
}

const RECEIVED_BY_KEY = 'fees.receivedBy';

function readRemembered(): RememberedReceiver | null {
  try {
    return parseRememberedReceiver(localStorage.getItem(RECEIVED_BY_KEY));
  } catch {
    return null;
  }
}

function remember(value: RememberedReceiver | null): void {
  try {
    if (value) localStorage.setItem(RECEIVED_BY_KEY, JSON.stringify(value));
  } catch {
    // private mode: nothing to remember
  }
}

export const emptyPaymentDetails = (user: CounterUser | null): PaymentDetailsValue => ({
  paymentMode: 'cash',
  chequeNumber: '',
  bankName: '',
  upiReference: '',
  transactionReference: '',
  receivedBy: initialReceiver(user, readRemembered()),
});

/**
 * A fee form's payment details, "Received by" filled with the signed-in person's name (still
 * editable); `rememberReceiver` after a save keeps a typed name for that person only (receiver.ts).
 */
export function usePaymentDetails() {
  // the session's own query: read from its cache, never fetched again from here
  const me = useQuery({ ...meQuery(), enabled: false }).data?.user;
  const user: CounterUser | null = me ? { id: me.id, username: me.username } : null;
  const [details, setDetails] = useState<PaymentDetailsValue>(() => emptyPaymentDetails(user));
  const rememberReceiver = (typed: string) => remember(receiverToRemember(user, typed));
  return { details, setDetails, rememberReceiver };
}

/** The fields the server wants for the chosen mode only; empty ones are left out. */
export function paymentDetailsBody(v: PaymentDetailsValue) {
  const text = (s: string) => (s.trim() ? s.trim() : null);
  return {
    paymentMode: v.paymentMode,
    chequeNumber: v.paymentMode === 'cheque' ? text(v.chequeNumber) : null,
    bankName: v.paymentMode === 'cheque' ? text(v.bankName) : null,
    upiReference: v.paymentMode === 'upi' ? text(v.upiReference) : null,
    transactionReference: v.paymentMode === 'bank_transfer' ? text(v.transactionReference) : null,
    receivedBy: text(v.receivedBy),
  };
}

const MODE_LABELS: Record<CounterMode, string> = { cash: 'Cash', cheque: 'Cheque', upi: 'UPI', card: 'Card', bank_transfer: 'Bank Transfer' };

/** Payment mode (cash by default; cheque number and bank, UPI reference, bank transfer reference) and received by. */
export function PaymentFields({
  value,
  onChange,
  idPrefix,
  disabled,
  className,
}: {
  value: PaymentDetailsValue;
  onChange: (next: PaymentDetailsValue) => void;
  idPrefix: string;
  disabled?: boolean;
  className?: string;
}) {
  const set = (patch: Partial<PaymentDetailsValue>) => onChange({ ...value, ...patch });
  return (
    <div className={cn('grid gap-3 sm:grid-cols-2 lg:grid-cols-4', className)}>
      <Field label="Payment Mode" htmlFor={`${idPrefix}-mode`}>
        <NativeSelect
          id={`${idPrefix}-mode`}
          value={value.paymentMode}
          disabled={disabled}
          onChange={(e) => set({ paymentMode: e.target.value as CounterMode })}
        >
          {COUNTER_PAYMENT_MODES.map((m) => (
            <option key={m} value={m}>
              {MODE_LABELS[m]}
            </option>
          ))}
        </NativeSelect>
      </Field>
      {value.paymentMode === 'cheque' ? (
        <>
          <Field label="Cheque Number *" htmlFor={`${idPrefix}-cheque`}>
            <Input id={`${idPrefix}-cheque`} value={value.chequeNumber} disabled={disabled} maxLength={30} autoComplete="off" onChange={(e) => set({ chequeNumber: e.target.value })} />
          </Field>
          <Field label="Bank Name *" htmlFor={`${idPrefix}-bank`}>
            <Input id={`${idPrefix}-bank`} value={value.bankName} disabled={disabled} maxLength={100} onChange={(e) => set({ bankName: e.target.value })} />
          </Field>
        </>
      ) : null}
      {value.paymentMode === 'upi' ? (
        <Field label="UPI Reference *" htmlFor={`${idPrefix}-upi`}>
          <Input id={`${idPrefix}-upi`} value={value.upiReference} disabled={disabled} maxLength={100} autoComplete="off" onChange={(e) => set({ upiReference: e.target.value })} />
        </Field>
      ) : null}
      {value.paymentMode === 'bank_transfer' ? (
        <Field label="Transaction Reference *" htmlFor={`${idPrefix}-txn`}>
          <Input
            id={`${idPrefix}-txn`}
            value={value.transactionReference}
            disabled={disabled}
            maxLength={100}
            autoComplete="off"
            onChange={(e) => set({ transactionReference: e.target.value })}
          />
        </Field>
      ) : null}
      <Field label="Received By" htmlFor={`${idPrefix}-received-by`} hint="Printed on the receipt; your account name when empty.">
        <Input id={`${idPrefix}-received-by`} value={value.receivedBy} disabled={disabled} maxLength={100} onChange={(e) => set({ receivedBy: e.target.value })} />
      </Field>
    </div>
  );
}

/** The server's rule (domain paymentDetailsProblem), checked before the request is sent. */
export function paymentDetailsMissing(v: PaymentDetailsValue): string | null {
  return paymentDetailsProblem(paymentDetailsBody(v));
}
