import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ArrowUpCircleIcon, IndianRupeeIcon, LogOutIcon } from 'lucide-react';
import { useState } from 'react';
import { toast } from '@/web/components/toaster';
import { Button } from '@/web/components/ui/button';
import { ConfirmDialog } from '@/web/components/ui/confirm-dialog';
import { refreshLedger } from '@/web/lib/ledger-api';
import { api } from '@/web/lib/request';
import { serverMessage } from '@/web/lib/form-errors';
import type { FeeStudent } from './fee-student';
import { PromoteDialog, type PromoteAnswer } from './promote-dialog';
import { RecordPaymentDialog } from './record-payment-dialog';

export const dischargeQuestion = (name: string) =>
  `Are you sure you want to discharge ${name}? This will move the student to passouts and calculate any outstanding fees. This action cannot be undone.`;

/**
 * The money and lifecycle actions of a student's record (operations §2): Record Fee Payment,
 * Promote Student and Discharge. They live here so the students feature can offer them without
 * importing the fee feature.
 */
export function StudentFeeActions({
  student,
  onPromoted,
  onDischarged,
}: {
  student: FeeStudent;
  onPromoted?: (answer: PromoteAnswer) => void;
  onDischarged?: () => void;
}) {
  const queryClient = useQueryClient();
  const [paying, setPaying] = useState(false);
  const [promoting, setPromoting] = useState(false);
  const [confirming, setConfirming] = useState(false);

  const discharge = useMutation({
    mutationFn: () => api.post<{ message: string }>(`/api/students/${student.id}/discharge`, { reason: `Discharged from ${student.class} class` }),
    onSuccess: () => refreshLedger(queryClient),
  });

  // through the promise: a discharged student leaves the refreshed lists, so this component may be
  // gone before mutate's own callbacks would run, and TanStack Query drops them then (as Delete Student)
  const doDischarge = () =>
    discharge.mutateAsync().then(
      () => {
        toast.success({ title: 'Student Discharged', description: 'Student has been successfully discharged and moved to passouts.' });
        onDischarged?.();
      },
      (error: unknown) =>
        toast.error({
          title: 'Discharge Failed',
          description: serverMessage(error) ?? 'Failed to discharge student. Please try again.',
        }),
    );

  return (
    <>
      <Button variant="outline" onClick={() => setPaying(true)}>
        <IndianRupeeIcon />
        Record Fee Payment
      </Button>
      <Button variant="outline" onClick={() => setPromoting(true)}>
        <ArrowUpCircleIcon />
        Promote Student
      </Button>
      <Button variant="outline" onClick={() => setConfirming(true)} disabled={discharge.isPending}>
        <LogOutIcon />
        {discharge.isPending ? 'Discharging...' : 'Discharge'}
      </Button>
      <RecordPaymentDialog student={student} open={paying} onOpenChange={setPaying} />
      <PromoteDialog student={student} open={promoting} onOpenChange={setPromoting} onPromoted={onPromoted} />
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title="Discharge Student"
        description={dischargeQuestion(student.name)}
        confirmLabel="Discharge"
        destructive
        onConfirm={doDischarge}
      />
    </>
  );
}
