import { feeStructureMissing, useGoToDashboardTab } from '@/web/components/guard-alert';
import { Alert, AlertDescription, AlertTitle } from '@/web/components/ui/alert';
import { Button } from '@/web/components/ui/button';

/** The fee screens' warning that the class has no fee structure for the year, with the way to add one. */
export function StructureMissingAlert({ className, academicYear }: { className: string; academicYear: string }) {
  const goToTab = useGoToDashboardTab();
  const text = feeStructureMissing(className, academicYear);
  return (
    <Alert variant="destructive">
      <AlertTitle>{text.title}</AlertTitle>
      <AlertDescription className="flex flex-wrap items-center justify-between gap-2">
        <span>{text.description}</span>
        <Button size="sm" variant="outline" onClick={() => goToTab(text.tab)}>
          {text.actionLabel}
        </Button>
      </AlertDescription>
    </Alert>
  );
}
