import { PrinterIcon, SaveIcon } from 'lucide-react';
import { useState, type KeyboardEvent, type ReactNode, type RefObject } from 'react';
import { formatINR, paise } from '@/domain/money';
import { openReceiptPrint } from '@/web/components/fees/receipt-actions';
import { toast } from '@/web/components/toaster';
import { Button } from '@/web/components/ui/button';
import { ConfirmDialog } from '@/web/components/ui/confirm-dialog';
import type { Receipt } from '@/web/lib/ledger-api';
import { SAVE_QUESTION } from './messages';

/**
 * What the monthly and yearly fee screens share around a save: Ctrl+S, the question before saving
 * with the amount, and printing the receipt just written (or the latest one of the year).
 */
export function useSaveControls() {
  const [confirming, setConfirming] = useState(false);
  /** The screen's key handler: Ctrl+S (or ⌘S) asks to save unless the screen is read-only. */
  const saveOnCtrlS = (readOnly: boolean, askToSave: () => void) => (e: KeyboardEvent) => {
    if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === 's') {
      e.preventDefault();
      if (!readOnly) askToSave();
    }
  };
  /** Opens the printable receipt for the first receipt found, or says there is none yet. */
  const printFirst = (latest: Receipt | undefined, nothingYet: string) => {
    if (!latest) {
      toast.info({ title: 'No Receipt Yet', description: `${nothingYet} Save the fees first, then print the receipt.` });
      return;
    }
    openReceiptPrint(latest.id);
  };
  return { confirming, setConfirming, saveOnCtrlS, printFirst };
}

export type SaveControls = ReturnType<typeof useSaveControls>;

/** Print Receipt and Save Changes, after any buttons the screen adds before them. */
export function SaveButtons({
  onPrint,
  onSave,
  saveRef,
  disabled,
  saving,
  children,
}: {
  onPrint: () => void;
  onSave: () => void;
  saveRef: RefObject<HTMLButtonElement | null>;
  disabled: boolean;
  saving: boolean;
  children?: ReactNode;
}) {
  return (
    <>
      {children}
      <Button variant="outline" onClick={onPrint}>
        <PrinterIcon />
        Print Receipt
      </Button>
      <Button ref={saveRef} onClick={onSave} disabled={disabled}>
        <SaveIcon />
        {saving ? 'Saving...' : 'Save Changes'}
      </Button>
    </>
  );
}

/** The Save Fee Entries question (with the student and amount). */
export function SaveDialogs({ controls, studentName, amount, onConfirm }: { controls: SaveControls; studentName: string; amount: number; onConfirm: () => void }) {
  const { confirming, setConfirming } = controls;
  return (
    <>
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title="Save Fee Entries"
        description={
          <>
            {SAVE_QUESTION}
            <span className="mt-2 block font-medium text-foreground">
              {studentName}: {formatINR(paise(amount))}
            </span>
          </>
        }
        confirmLabel="Save"
        focusConfirm
        onConfirm={onConfirm}
      />
    </>
  );
}
