import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/web/components/ui/dialog';
import { SUBSCRIPTIONS_PLACEHOLDER } from './texts';

/**
 * Placeholder: the Manage dialog (plan, status, dates, extend, change plan, cancel, offline payment,
 * deactivate) is built by the subscription work of issue 12 item 1, which replaces this file and
 * keeps this export and these props.
 */
export function ManageSchoolDialog({ schoolId, open, onOpenChange }: { schoolId: string; open: boolean; onOpenChange(open: boolean): void }) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent data-school-id={schoolId}>
        <DialogHeader>
          <DialogTitle>Manage School Plan</DialogTitle>
          <DialogDescription>{SUBSCRIPTIONS_PLACEHOLDER}</DialogDescription>
        </DialogHeader>
      </DialogContent>
    </Dialog>
  );
}
