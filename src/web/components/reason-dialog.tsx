import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { Button } from '@/web/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/web/components/ui/dialog';
import { Textarea } from '@/web/components/ui/input';
import { Field } from '@/web/components/ui/label';
import { refusalMessage } from '@/web/lib/form-errors';

/** The words of the dialog that stay the same from one use to the next; each feature keeps them in its texts.ts. */
export interface ReasonDialogTexts {
  /** the label of the reason box (journeys find the box by it) */
  reason: string;
  reasonRequired: string;
  placeholder?: string;
  cancel: string;
  /** the confirm button while the action runs */
  saving: string;
  /** shown when the action fails without a reason from the server (network, 5xx) */
  failed: string;
}

/** Shortest reason kept: "ok" says nothing to whoever reads the record later. */
export const MIN_REASON_LENGTH = 3;

/**
 * A decision kept with its reason (reject, waive, revoke, unlock): asks for the reason, then runs the
 * action; closes on success, shows the server's refusal beside the box on failure and keeps what was typed.
 */
export function ReasonDialog({
  open,
  onOpenChange,
  title,
  description,
  confirmLabel,
  onConfirm,
  texts,
  destructive = false,
  children,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description: ReactNode;
  confirmLabel: string;
  onConfirm: (reason: string) => Promise<unknown>;
  texts: ReasonDialogTexts;
  /** a red confirm button, for actions that take something away (sign a browser out, lift a lock) */
  destructive?: boolean;
  /** anything the decision needs besides the reason, above the reason box */
  children?: ReactNode;
}) {
  const id = useId();
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (reason.trim().length < MIN_REASON_LENGTH) {
      setError(texts.reasonRequired);
      return;
    }
    setBusy(true);
    try {
      await onConfirm(reason.trim());
      setReason('');
      setError(undefined);
      onOpenChange(false);
    } catch (err) {
      setError(refusalMessage(err, texts.failed));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent>
        <form onSubmit={submit} className="grid gap-4" noValidate>
          <DialogHeader>
            <DialogTitle>{title}</DialogTitle>
            <DialogDescription>{description}</DialogDescription>
          </DialogHeader>
          {children}
          <Field label={texts.reason} htmlFor={id} error={error}>
            <Textarea
              id={id}
              value={reason}
              maxLength={500}
              placeholder={texts.placeholder}
              aria-invalid={error ? true : undefined}
              onChange={(e) => setReason(e.target.value)}
            />
          </Field>
          <DialogFooter>
            <Button type="button" variant="outline" onClick={() => onOpenChange(false)}>
              {texts.cancel}
            </Button>
            <Button type="submit" variant={destructive ? 'destructive' : 'default'} disabled={busy}>
              {busy ? texts.saving : confirmLabel}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
