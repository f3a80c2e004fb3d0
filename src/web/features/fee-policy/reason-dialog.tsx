import type { ComponentProps } from 'react';
import { ReasonDialog as SharedReasonDialog, type ReasonDialogTexts } from '@/web/components/reason-dialog';
import { texts } from './texts';

const reasonTexts: ReasonDialogTexts = {
  reason: texts.reasonLabel,
  reasonRequired: texts.reasonRequired,
  cancel: texts.cancel,
  saving: texts.saving,
  failed: texts.reasonFailed,
};

/** The shared reason dialog in the fee policy's words (reject a request, waive a fine). */
export function ReasonDialog(props: Omit<ComponentProps<typeof SharedReasonDialog>, 'texts'>) {
  return <SharedReasonDialog {...props} texts={reasonTexts} />;
}
