import { DownloadIcon, PrinterIcon, ReceiptTextIcon } from 'lucide-react';
import { useState } from 'react';
import { toast } from '@/web/components/toaster';
import { Button } from '@/web/components/ui/button';
import { rupees } from '@/web/lib/format';
import { downloadFile, receiptPdfPath, receiptPrintHref, type Receipt } from '@/web/lib/ledger-api';
import { cn } from '@/web/lib/utils';

/**
 * Print Receipt (operations §5 Receipts): the printable receipt opens in its own window and prints
 * itself. It shows the "Received by" stored with the receipt, so every reprint names the person
 * who took the money; nobody types a name at print time. A blocked pop-up is only logged (§8).
 */
export function openReceiptPrint(receiptId: string): void {
  const win = window.open(receiptPrintHref(receiptId), '_blank');
  if (!win) console.warn('The receipt window was blocked by the browser');
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
  const [downloading, setDownloading] = useState(false);
  return (
    <div className={cn('flex flex-wrap gap-2', className)}>
      <Button variant="outline" size={size} onClick={() => openReceiptPrint(receipt.id)} aria-label={`Print receipt ${receipt.receiptNumber}`}>
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
