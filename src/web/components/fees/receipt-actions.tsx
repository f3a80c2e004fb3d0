import { DownloadIcon, PrinterIcon, ReceiptTextIcon } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { toast } from '@/web/components/toaster';
import { Button } from '@/web/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/web/components/ui/dialog';
import { Input } from '@/web/components/ui/input';
import { Field } from '@/web/components/ui/label';
import { rupees } from '@/web/lib/format';
import { downloadFile, receiptPdfPath, receiptPrintHref, type Receipt } from '@/web/lib/ledger-api';
import { cn } from '@/web/lib/utils';
import { rememberedReceiver, rememberReceiver } from './payment-fields';

export const PRINT_CANCELLED_MESSAGE = 'Receipt printing cancelled. User name is required.';

/**
 * Print Receipt (operations §5 Receipts): the issuer's name is asked first; an empty name cancels
 * printing. The printable receipt opens in its own window; a blocked pop-up is only logged (§8).
 */
export function PrintReceiptDialog({ receiptId, open, onOpenChange }: { receiptId: string | null; open: boolean; onOpenChange: (open: boolean) => void }) {
  const [name, setName] = useState(rememberedReceiver);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    onOpenChange(false);
    if (!receiptId) return;
    if (!name.trim()) {
      toast.error({ title: 'Print Cancelled', description: PRINT_CANCELLED_MESSAGE });
      return;
    }
    rememberReceiver(name);
    const win = window.open(receiptPrintHref(receiptId, name.trim()), '_blank');
    if (!win) console.warn('The receipt window was blocked by the browser');
  };

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-w-sm">
        <DialogHeader>
          <DialogTitle>Print Receipt</DialogTitle>
          <DialogDescription>Enter your name. It is printed on the receipt as the person who issued it.</DialogDescription>
        </DialogHeader>
        <form onSubmit={submit} noValidate className="grid gap-4">
          <Field label="Your name" htmlFor="issuer-name">
            <Input id="issuer-name" value={name} autoFocus maxLength={100} onChange={(e) => setName(e.target.value)} />
          </Field>
          <DialogFooter>
            <Button variant="outline" onClick={() => onOpenChange(false)}>
              Cancel
            </Button>
            <Button type="submit">
              <PrinterIcon />
              Print
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}

/** Downloads the server's PDF of a receipt (the same receipt, to keep or share). */
export async function downloadReceiptPdf(receipt: Pick<Receipt, 'id' | 'receiptNumber'>): Promise<void> {
  try {
    await downloadFile(receiptPdfPath(receipt.id), `receipt-${receipt.receiptNumber.replace(/\//g, '-')}.pdf`);
  } catch (error) {
    toast.error({ title: 'Download Failed', description: error instanceof Error ? error.message : 'Failed to download the receipt' });
  }
}

/** Print and Download PDF for one receipt. */
export function ReceiptButtons({ receipt, size = 'sm', className }: { receipt: Pick<Receipt, 'id' | 'receiptNumber'>; size?: 'sm' | 'default'; className?: string }) {
  const [printing, setPrinting] = useState(false);
  const [downloading, setDownloading] = useState(false);
  return (
    <div className={cn('flex flex-wrap gap-2', className)}>
      <Button variant="outline" size={size} onClick={() => setPrinting(true)} aria-label={`Print receipt ${receipt.receiptNumber}`}>
        <PrinterIcon />
        Print
      </Button>
      <Button
        variant="outline"
        size={size}
        disabled={downloading}
        aria-label={`Download PDF of receipt ${receipt.receiptNumber}`}
        onClick={async () => {
          setDownloading(true);
          await downloadReceiptPdf(receipt);
          setDownloading(false);
        }}
      >
        <DownloadIcon />
        {downloading ? 'Downloading...' : 'Download PDF'}
      </Button>
      <PrintReceiptDialog receiptId={receipt.id} open={printing} onOpenChange={setPrinting} />
    </div>
  );
}

/** The receipt a save just created: its number and total, ready to print or download. */
export function SavedReceipt({ receipt, className }: { receipt: Receipt; className?: string }) {
  return (
    <div
      role="status"
      aria-label={`Receipt ${receipt.receiptNumber}`}
      className={cn('flex flex-wrap items-center justify-between gap-3 rounded-lg border border-green-200 bg-green-50 px-4 py-3 text-green-900 dark:border-green-900 dark:bg-green-950/40 dark:text-green-100', className)}
    >
      <div className="flex items-center gap-3">
        <ReceiptTextIcon className="size-5 shrink-0" />
        <div className="grid">
          <span className="text-sm">
            Receipt <strong className="font-mono">{receipt.receiptNumber}</strong> saved
          </span>
          <span className="text-xs opacity-80">
            {rupees(receipt.total)} · {receipt.lines.length} {receipt.lines.length === 1 ? 'line' : 'lines'} · {receipt.totalInWords}
          </span>
        </div>
      </div>
      <ReceiptButtons receipt={receipt} />
    </div>
  );
}
