import { AlertDialog } from 'radix-ui';
import { TriangleAlertIcon } from 'lucide-react';
import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { buttonVariants } from './ui/button';

/** What the dashboard and the fee screens say when something they need is missing (operations §2). */
export interface GuardMessage {
  title: string;
  description: string;
  /** the dashboard tab that fixes it */
  tab: 'students' | 'fee-structure';
  actionLabel: string;
}

export const NO_STUDENTS_FOUND: GuardMessage = {
  title: 'No Students Found',
  description: 'Please add students first. You can add students manually or bulk import them from a CSV file in the Students tab.',
  tab: 'students',
  actionLabel: 'Go to Students',
};

export const NO_FEE_STRUCTURE_FOUND: GuardMessage = {
  title: 'No Fee Structure Found',
  description: 'Please set up the fee structure for your classes first. Fees are recorded against the class fee structure.',
  tab: 'fee-structure',
  actionLabel: 'Go to Fee Structure',
};

/**
 * "Fee Structure Missing for Class {class}": the fee screens show it when a student's class has no
 * structure for the chosen year. Canonical names already start with "Class", so it is not repeated.
 */
export function feeStructureMissing(className: string, academicYear?: string): GuardMessage {
  const label = className.replace(/^Class\s+/i, '');
  const year = academicYear ? ` for ${academicYear}` : '';
  return {
    title: `Fee Structure Missing for Class ${label}`,
    description: `No fee structure is set up for ${className}${year}. Add it in the Fee Structure tab before recording fees for this class.`,
    tab: 'fee-structure',
    actionLabel: 'Go to Fee Structure',
  };
}

/** The dashboard URL of a tab; the active tab lives in `?tab=` so reload and back work. */
export const dashboardTabHref = (tab: string) => `/school/dashboard?tab=${encodeURIComponent(tab)}`;

export function useGoToDashboardTab() {
  const navigate = useNavigate();
  return useCallback((tab: string) => navigate(dashboardTabHref(tab)), [navigate]);
}

/** An alert that must be acknowledged; its one button leads to the tab that fixes the problem. */
export function GuardAlert({ message, onClose, onAction }: { message: GuardMessage | null; onClose: () => void; onAction: (message: GuardMessage) => void }) {
  return (
    <AlertDialog.Root open={message !== null} onOpenChange={(open) => (open ? undefined : onClose())}>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className="fixed inset-0 z-50 bg-black/50" />
        <AlertDialog.Content className="fixed left-1/2 top-1/2 z-50 grid w-[calc(100%-1.5rem)] max-w-md -translate-x-1/2 -translate-y-1/2 gap-4 rounded-xl border bg-card p-6 shadow-lg">
          <div className="flex items-start gap-3">
            <span className="mt-0.5 flex size-9 shrink-0 items-center justify-center rounded-full bg-warning/20 text-amber-600 dark:text-warning">
              <TriangleAlertIcon className="size-5" />
            </span>
            <div className="grid gap-1.5">
              <AlertDialog.Title className="text-lg font-semibold">{message?.title}</AlertDialog.Title>
              <AlertDialog.Description className="text-sm text-muted-foreground">{message?.description}</AlertDialog.Description>
            </div>
          </div>
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <AlertDialog.Action className={buttonVariants()} onClick={() => message && onAction(message)}>
              {message?.actionLabel}
            </AlertDialog.Action>
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}
