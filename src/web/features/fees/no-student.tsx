import { PrinterIcon, SaveIcon } from 'lucide-react';
import { SELECT_STUDENT_MESSAGE } from '@/domain/ledger';
import { toast } from '@/web/components/toaster';
import { Button } from '@/web/components/ui/button';
import { Spinner } from '@/web/components/ui/spinner';

/** Before a student is chosen the buttons are there, and say what is missing (operations §5, §8). */
export function NoStudent({ what }: { what: string }) {
  return (
    <div className="grid justify-items-center gap-3 rounded-lg border border-dashed px-4 py-8 text-center">
      <p className="text-sm text-muted-foreground">Select the class, section and roll number of a student to enter their {what}.</p>
      <div className="flex flex-wrap justify-center gap-2">
        <Button variant="outline" onClick={() => toast.error({ title: 'Error', description: 'No student selected' })}>
          <PrinterIcon />
          Print Receipt
        </Button>
        <Button onClick={() => toast.error({ title: 'Validation Error', description: SELECT_STUDENT_MESSAGE })}>
          <SaveIcon />
          Save Changes
        </Button>
      </div>
    </div>
  );
}

/** A roll number is chosen and the student's own row (class, session, fees) is on its way. */
export function StudentLoading() {
  return (
    <div className="flex justify-center py-10">
      <Spinner className="size-6" label="Loading student" />
    </div>
  );
}
