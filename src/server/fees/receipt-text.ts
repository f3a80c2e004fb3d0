import type { ReceiptDto } from './dto';

const MODE_LABELS: Record<ReceiptDto['paymentMode'], string> = {
  cash: 'Cash',
  cheque: 'Cheque',
  upi: 'UPI',
  card: 'Card',
  bank_transfer: 'Bank Transfer',
  online: 'Online',
  credit: "From the student's credit",
};

/** "Cheque No. 123456, State Bank of India", "UPI (ref 4093…)", "Cash". */
export function paymentModeLabel(r: Pick<ReceiptDto, 'paymentMode' | 'chequeNumber' | 'bankName' | 'upiReference' | 'transactionReference'>): string {
  const label = MODE_LABELS[r.paymentMode];
  if (r.paymentMode === 'cheque') return [`${label} No. ${r.chequeNumber ?? ''}`.trim(), r.bankName].filter(Boolean).join(', ');
  if (r.paymentMode === 'upi' && r.upiReference) return `${label} (ref ${r.upiReference})`;
  if ((r.paymentMode === 'bank_transfer' || r.paymentMode === 'online') && r.transactionReference) return `${label} (ref ${r.transactionReference})`;
  return label;
}

/** The India date of an instant as 15/11/2025 (en-IN). */
export function formatReceiptDate(iso: string): string {
  const d = new Date(new Date(iso).getTime() + 330 * 60_000).toISOString().slice(0, 10);
  const [y, m, day] = d.split('-');
  return `${day}/${m}/${y}`;
}
